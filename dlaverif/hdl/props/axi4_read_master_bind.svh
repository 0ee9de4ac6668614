// axi4_read_master_bind.svh: axi4_read_master_props attached by port PREFIX to the AR/R ports of a design we did
// not write and do not edit (our readers instantiate their property modules themselves, reader_props.sv). A build
// names a property list (builds.<name>.properties in blocks/plan.yaml) with axi4_read_master_props.sv and a small
// binding file that says what its master declares:
//
//   `include "axi4_read_master_bind.svh"
//   `DLA_PROPS_ROOT_BEGIN
//   `AXI4_READ_MASTER_BIND(their_dma, rd_, aclk, aresetn, 1'b0, (.ADDR_W (32), .DATA_W (64), .ALIGNED (1'b0)))
//   `DLA_PROPS_ROOT_END
//
// (Its outputs for other property modules are left open: a binding file wraps the macro in
// /* verilator lint_off PINCONNECTEMPTY */ ... lint_on.)
//
//   TOP         the design's module, the simulation's top (Icarus reaches its ports from the root, below)
//   PREFIX      its AR/R ports' names up to the channel letters: rd_ for rd_arvalid, rd_rdata, ...
//   CLK, RST    its clock and reset ports; RST_ACTIVE the reset's active level (1'b1 high, 1'b0 low)
//   PARAMS      axi4_read_master_props' parameter overrides in parentheses: widths and what the master declares
//               (ALIGNED, MAX_OUTSTANDING, BURSTS, FULL_SIZE, MAX_BURST)
// The ports the binding connects are <PREFIX>ar{valid,ready,addr,len,size,burst} and <PREFIX>r{valid,ready,data,
// resp,last}; ARID, ARLOCK, ARCACHE, ARPROT and RID are taken as 0 (one ID, normal accesses), what a master without
// those ports means. A master with ID ports binds with AXI4_READ_MASTER_BIND_ID (same arguments): its <PREFIX>arid
// and <PREFIX>rid are connected too, PARAMS then giving ID_W (their width) and ARID (the one ID it uses).
//
// How it attaches: SystemVerilog `bind` (IEEE 1800-2017 23.11) puts the property instance inside every instance of
// TOP. Icarus 11 has no `bind`: there the same instance lives in a second root module, dla_props_root, and reads
// TOP's ports by hierarchical name; the flow (dlaverif/flow/runner.py) elaborates that root beside the top when the
// property list defines it. Either way a failure is one line in assertions.log (prop_macros.svh), which fails the
// test that was running.
`ifndef AXI4_READ_MASTER_BIND_SVH
`define AXI4_READ_MASTER_BIND_SVH
`ifdef __ICARUS__
// TOP's instance from the root: TOP itself, or in a fast-path build (dlaverif/flow/fastpath.py: the flow defines
// DLA_FASTPATH_TOP as the generated wrapper's name) the wrapper's instance of it, dut
`ifdef DLA_FASTPATH_TOP
`define DLA_PROPS_AT(TOP) `DLA_FASTPATH_TOP.dut
`else
`define DLA_PROPS_AT(TOP) TOP
`endif
`define DLA_PROPS_ROOT_BEGIN module dla_props_root;
`define DLA_PROPS_ROOT_END endmodule
`define AXI4_READ_MASTER_BIND(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS) \
  `AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, '0, '0)
`define AXI4_READ_MASTER_BIND_ID(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS) \
  `AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, \
                             `DLA_PROPS_AT(TOP).PREFIX``arid, `DLA_PROPS_AT(TOP).PREFIX``rid)
`define AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, ARID, RID) \
  axi4_read_master_props #PARAMS u_``TOP``_axi4_read_master_props ( \
    .clk (`DLA_PROPS_AT(TOP).CLK), .rst (`DLA_PROPS_AT(TOP).RST == RST_ACTIVE), .stop (1'b0), .job_done (1'b0), \
    .arid (ARID), .araddr (`DLA_PROPS_AT(TOP).PREFIX``araddr), .arlen (`DLA_PROPS_AT(TOP).PREFIX``arlen), \
    .arsize (`DLA_PROPS_AT(TOP).PREFIX``arsize), .arburst (`DLA_PROPS_AT(TOP).PREFIX``arburst), .arlock (1'b0), \
    .arcache (4'b0), .arprot (3'b0), .arvalid (`DLA_PROPS_AT(TOP).PREFIX``arvalid), \
    .arready (`DLA_PROPS_AT(TOP).PREFIX``arready), .rid (RID), .rdata (`DLA_PROPS_AT(TOP).PREFIX``rdata), \
    .rresp (`DLA_PROPS_AT(TOP).PREFIX``rresp), .rlast (`DLA_PROPS_AT(TOP).PREFIX``rlast), \
    .rvalid (`DLA_PROPS_AT(TOP).PREFIX``rvalid), .rready (`DLA_PROPS_AT(TOP).PREFIX``rready), \
    .n_flight (), .n_acc (), .ar_new (), .head_addr (), .head_len (), .head_beat (), .halted () \
  );
`else
`define DLA_PROPS_ROOT_BEGIN
`define DLA_PROPS_ROOT_END
`define AXI4_READ_MASTER_BIND(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS) \
  `AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, '0, '0)
`define AXI4_READ_MASTER_BIND_ID(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS) \
  `AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, PREFIX``arid, PREFIX``rid)
`define AXI4_READ_MASTER_BIND_IDS(TOP, PREFIX, CLK, RST, RST_ACTIVE, PARAMS, ARID, RID) \
  bind TOP axi4_read_master_props #PARAMS u_axi4_read_master_props ( \
    .clk (CLK), .rst (RST == RST_ACTIVE), .stop (1'b0), .job_done (1'b0), \
    .arid (ARID), .araddr (PREFIX``araddr), .arlen (PREFIX``arlen), .arsize (PREFIX``arsize), \
    .arburst (PREFIX``arburst), .arlock (1'b0), .arcache (4'b0), .arprot (3'b0), \
    .arvalid (PREFIX``arvalid), .arready (PREFIX``arready), .rid (RID), .rdata (PREFIX``rdata), \
    .rresp (PREFIX``rresp), .rlast (PREFIX``rlast), .rvalid (PREFIX``rvalid), .rready (PREFIX``rready), \
    .n_flight (), .n_acc (), .ar_new (), .head_addr (), .head_len (), .head_beat (), .halted () \
  );
`endif
`endif
