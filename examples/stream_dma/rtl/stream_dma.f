stream_dma.sv
