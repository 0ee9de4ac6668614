// The AXI4 read engine alone (its directed tests): the shared RAM of its burst table, then the engine; the include
// folder of its port groups (axi_ports.svh, axi_rd_engine_ports.svh).
+incdir+.+$DLA_RTL/props
param_contract.sv
sdp_ram.sv
axi_rd_engine.sv
