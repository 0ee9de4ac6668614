"""The agents' own cocotb test, run on the read engine's build."""
