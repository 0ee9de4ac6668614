"""NVIDIA's convolution DMA (``NV_NVDLA_cdma``, nvdla/hw nvdlav1) on the platform's NVDLA parts against the
models: every byte it writes into the convolution buffer (blocks/nvdla_cdma/tests.py)."""
