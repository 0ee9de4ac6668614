"""Checkers that subscribe to the agents' analysis ports (protocol rules, read footprints)."""
