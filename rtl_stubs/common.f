// What every reader compiles: the register package, the AXI4-Lite register block and the one AXI4 read engine.
accel_pkg.sv
axil_regs.sv
axi_rd_engine.sv
