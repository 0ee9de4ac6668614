// axil_regs_props: the register file's property bundle, bound inside axil_regs under DLA_ASSERT (ports and four
// internal signals, named at the bind site). It checks the AXI4-Lite slave port (axil_slave_props, MAPPED as the
// register file's) and asserts the invariants that tie that module's shadow state to the register file's own
// state. The invariants are true of the design (BMC proves them with the rest) and are what makes the slave
// properties provable by k-induction (dlaverif/flow/formal.py, Proof.prove): in an arbitrary start state the shadow's
// pending flags and word index are otherwise unrelated to aw_full/w_full/aw_idx, and a stale flag or index can
// be carried for any number of cycles before the response that exposes it.
//   * no AW or W is held beside a B (the slave stalls both until BREADY);
//   * a presented B carries the response of the held AW's word index (aw_mapped of that index);
//   * the shadow's AW / W pending = the register file holds that AW / W, or its B is new this cycle;
//   * the shadow's AW word index = the register file's while an AW is pending;
//   * the shadow's AR pending = a new R this cycle (the R follows its AR by one cycle).
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
module axil_regs_props #(
  parameter int                N_REGS = 4,
  parameter int                ADDR_W = 8,
  parameter logic [N_REGS-1:0] MAPPED = '1
) (
  input  logic              clk,
  input  logic              rst,
  `AXIL_PORTS(s_axil_, input, input, ADDR_W),
  // the register file's internal state (axil_regs.sv)
  input  logic              aw_full,        // an AW is held
  input  logic              w_full,         // a W is held
  input  logic [ADDR_W-3:0] aw_idx,         // the held AW's word index
  input  logic              aw_mapped       // that index is a mapped register
);

  `PROP_REPORTER

  logic              s_aw_pend, s_w_pend, s_ar_pend, s_b_new, s_r_new;
  logic [ADDR_W-3:0] s_aw_idx, s_ar_idx;

  axil_slave_props #(.ADDR_W (ADDR_W), .MAPPED ((2**(ADDR_W-2))'(MAPPED))) axil (
    .clk, .rst,
    `AXIL_CONNECT(, s_axil_),
    .aw_pend (s_aw_pend), .w_pend (s_w_pend), .ar_pend (s_ar_pend), .aw_idx (s_aw_idx), .ar_idx (s_ar_idx),
    .b_new (s_b_new), .r_new (s_r_new)
  );

  always @(posedge clk) begin
    if (!rst) begin
      `PROP_ASSERT("inv: no AW/W held beside a B", !(s_axil_bvalid && (aw_full || w_full)))
      if (s_axil_bvalid) `PROP_ASSERT("inv: BRESP of the held AW index", s_axil_bresp == (aw_mapped ? 2'b00 : 2'b10))
      `PROP_ASSERT("inv: AW pending = AW held or B new", s_aw_pend == (aw_full || s_b_new))
      `PROP_ASSERT("inv: W pending = W held or B new", s_w_pend == (w_full || s_b_new))
      if (s_aw_pend) `PROP_ASSERT("inv: AW index = the shadow's", aw_idx == s_aw_idx)
      `PROP_ASSERT("inv: AR pending = R new", s_ar_pend == s_r_new)
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{s_ar_idx};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
