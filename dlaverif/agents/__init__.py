"""Agents shared by every reader DUT: AXI4 read memory (``axi_mem``), AXI4-Lite registers (``csr``), AXI4-Stream
output (``stream``), stall patterns (``stalls``); each publishes what it sees on analysis ports (``analysis``)."""

from .analysis import AnalysisPort, JobLog
from .axi_mem import AxiMemAgent, Burst, RBeat, SparseMemory
from .csr import CsrAgent
from .stream import AxiStreamMonitor, Beat, StreamReadyDriver

__all__ = [
    "AnalysisPort",
    "JobLog",
    "AxiMemAgent",
    "Burst",
    "RBeat",
    "SparseMemory",
    "CsrAgent",
    "AxiStreamMonitor",
    "Beat",
    "StreamReadyDriver",
]
