"""Racks against the facility: power per rack, cooling and CDUs."""
