// The AXI4 read engine alone (its directed tests).
axi_rd_engine.sv
