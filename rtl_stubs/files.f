dla_pkg.sv
axil_regs.sv
desc_validator.sv
axi_rd_engine.sv
cube_reader.sv
