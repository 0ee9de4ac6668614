"""The fast path: the memory, the output capture and the clock in HDL (``hdl/``), exchanged with Python once per
job (``harness.py``)."""

from pathlib import Path

#: the HDL-side memory, stall generator and capture, in compile order (``hdl/fastpath/``)
HDL_SOURCES = tuple(
    Path(__file__).resolve().parent.parent / "hdl" / "fastpath" / f"{n}.sv"
    for n in ("hdl_stall", "hdl_axi_mem", "hdl_stream_capture")
)
#: the HDL memory's size in bytes and the capture's depth in transfers (the wrapper's MEM_WORDS and OUT_DEPTH)
MEM_BYTES, OUT_DEPTH = 1 << 24, 1 << 18
