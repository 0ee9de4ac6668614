byte_dma.sv
