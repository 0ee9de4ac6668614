"""The platform verifying DUTs it was not written for: ``byte_dma`` (blocks/selftest_dma/rtl/byte_dma.sv), a
descriptor-port DMA with several jobs in flight, an active-low reset, unaligned byte addresses and a completion pulse
that comes before its job's last output transfer, and ``pin_dma`` (the same behind start/done pins)."""
