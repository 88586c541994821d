// The HLS module. See README.md, section "HLS".
