"""Quick fixes: the remedies findings carry, turned into undoable commands, and fix-all."""
