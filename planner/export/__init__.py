"""Exports that need no Qt: the Excel workbook (``planner.export.xlsx``)."""
