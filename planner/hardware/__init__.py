"""The device catalog: hardware data with datasheet sources."""
