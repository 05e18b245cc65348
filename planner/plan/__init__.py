"""The plan, its edits (commands and change sets), its file format and the reference-design templates."""
