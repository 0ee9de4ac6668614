// The property modules bound inside the design under DLA_ASSERT (dlaverif/hdl/props/prop_macros.svh): every
// simulation compiles them after the design's own list (<top>.f), with +define+DLA_ASSERT and +incdir+props.
// Synthesis lists (<top>.f) never name them. They declare the ports they watch with the design's port groups
// (dlaverif/hdl/props/axi_ports.svh).
+incdir+../common+$DLA_RTL/props
atom_fifo_props.sv
$DLA_RTL/props/axi4_read_master_props.sv
axi_rd_engine_contract.sv
axi_rd_engine_props.sv
axil_regs_props.sv
$DLA_RTL/props/axil_slave_props.sv
$DLA_RTL/props/axis_source_props.sv
job_contract_props.sv
reader_props.sv
sdp_ram_props.sv
weight_group_props.sv
