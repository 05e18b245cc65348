"""The desktop app: PySide6 views and controllers over the planner core (no planning arithmetic here)."""
