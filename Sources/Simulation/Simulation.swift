// The Simulation module. See README.md, section "Simulation".
