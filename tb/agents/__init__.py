"""Reusable agents shared by every reader DUT: AXI4 read memory (axi_mem), AXI4-Lite registers (csr),
AXI4-Stream output monitor (stream)."""
from .axi_mem import AxiMemAgent, Burst, SparseMemory
from .csr import CsrAgent, JobStatus
from .stream import Beat, StreamMonitor

__all__ = ["AxiMemAgent", "Burst", "SparseMemory", "CsrAgent", "JobStatus", "Beat", "StreamMonitor"]
