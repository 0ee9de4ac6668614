$STREAM_DMA_RTL/stream_dma.sv
