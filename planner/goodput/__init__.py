"""Goodput: how often the plan's parts interrupt a training job, the checkpoint interval
that answers it, and the share of the time left for training (ETTR)."""
