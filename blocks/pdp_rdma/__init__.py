"""NVIDIA's PDP read DMA (``NV_NVDLA_PDP_rdma``, nvdla/hw nvdlav1) on the platform against ``models.nvdla`` feature
cubes: its binding through the NVDLA platform parts (:mod:`dlaverif.agents.nvdla.csb`,
:mod:`dlaverif.agents.nvdla.dma_read`, :mod:`dlaverif.agents.nvdla.flagged_stream`); here only its items, sequences,
scoreboard hooks, coverage and tests."""
