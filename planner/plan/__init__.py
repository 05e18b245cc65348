"""The plan, its edits (commands and change sets) and its file format."""
