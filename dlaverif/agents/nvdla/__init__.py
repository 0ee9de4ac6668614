"""Agents of NVDLA's client interfaces, one module per bus role: :mod:`~dlaverif.agents.nvdla.csb` (the configuration
space bus and its job sender), :mod:`~dlaverif.agents.nvdla.dma_read` (a DMA read port as a memory, with credits or
back-pressure by ``rsp_ready`` alone, and the backend of an NVDLA client), :mod:`~dlaverif.agents.nvdla.flagged_stream`
(a data-path word of bytes and flags as a stream, its end of job a predicate)."""
