// The FilterKit module. See README.md, section "FilterKit".
