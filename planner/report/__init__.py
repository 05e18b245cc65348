"""The report: its model, the evaluator, its sections and their labels."""
