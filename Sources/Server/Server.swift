// The Server module. See README.md, section "Server".
