// The Packaging module. See README.md, section "Packaging".
