"""Bill of materials, capex, opex and rent vs build."""
