"""Drawings of a plan for people outside the app: rack elevations (PNG, SVG) and the vendor pack (PDF)."""
