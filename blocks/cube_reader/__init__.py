"""Cube reader testbench: pyuvm env, sequences, scoreboard and coverage (tests.py); directed tests
(test_directed.py)."""
