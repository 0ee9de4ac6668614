// The AXI4 read engine alone (its directed tests): the shared RAM of its burst table, then the engine.
param_contract.sv
sdp_ram.sv
axi_rd_engine.sv
