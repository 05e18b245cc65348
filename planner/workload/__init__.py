"""Training workload: step time, throughput ceiling and the archetype advisor."""
