"""Agents of NVDLA's client interfaces (one module per bus role)."""
