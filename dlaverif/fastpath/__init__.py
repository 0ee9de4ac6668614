"""The fast path: the memory, the output capture and the clock in HDL (``hdl/``), exchanged with Python once per
job (``harness.py``)."""
