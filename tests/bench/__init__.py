"""`make bench`: throughput of the reference models (not tests; nothing here asserts a time)."""
