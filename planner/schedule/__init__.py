"""The build-out schedule: phases, ready months, critical parts, capex by quarter."""
