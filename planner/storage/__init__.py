"""Checkpoint and dataset storage sizing."""
