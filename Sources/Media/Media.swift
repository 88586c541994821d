// The Media module. See README.md, section "Media".
