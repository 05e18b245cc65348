"""Counts in messages read as people write them: "1 fix", "3 fixes", "2,048 GPUs"."""

from planner.numbers import counted


def test_one_is_singular_and_others_plural():
    assert counted(1, "GPU") == "1 GPU"
    assert counted(0, "rack") == "0 racks"
    assert counted(2, "sequence") == "2 sequences"


def test_nouns_ending_in_a_hiss_take_es():
    assert counted(1, "fix") == "1 fix"
    assert counted(3, "fix") == "3 fixes"
    assert counted(2, "switch") == "2 switches"
    assert counted(4, "batch") == "4 batches"


def test_thousands_are_grouped():
    assert counted(2048, "GPU") == "2,048 GPUs"
    assert counted(1_000_080, "token") == "1,000,080 tokens"

