byte_dma.sv
pin_dma.sv
