"""Acceptance tests a vendor signs, and the measured results read back."""
