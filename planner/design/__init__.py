"""Designing plans: the reference-design templates, built into plans from the concerns' sizing
(fabric, cooling, heat), so this layer sits above them and below the report."""
