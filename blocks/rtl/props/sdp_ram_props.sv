// sdp_ram_props: the RAM's documented read behaviour as an assertion, bound inside sdp_ram under DLA_ASSERT (its
// ports and its word array): rdata is the word at the previous cycle's raddr as it is after that edge's write
// (write-first), i.e. rdata = mem[raddr of the previous cycle] in every cycle after the first. True of the design
// (BMC proves it with the rest) and the invariant k-induction needs to tie a FIFO's registered head (rdata) to its
// stored word; checked in every simulation (=== so that a word never written, X in Icarus, compares equal to
// itself). The RAM has no reset: the check starts from its second clock edge.
`timescale 1ns/1ps
`include "prop_macros.svh"
module sdp_ram_props #(
  parameter int W     = 8,
  parameter int DEPTH = 16,
  parameter int AW    = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic          clk,
  input  logic [AW-1:0] raddr,
  input  logic [W-1:0]  rdata,
  input  logic [W-1:0]  mem_rd,       // mem[p_raddr], as it is now (the bind site indexes the array)
  output logic [AW-1:0] p_raddr       // raddr of the previous cycle
);

  `PROP_REPORTER

  logic p_valid;
  initial p_valid = 1'b0;
  always @(posedge clk) begin
    p_valid <= 1'b1;
    p_raddr <= raddr;
  end

  always @(posedge clk) begin
    if (p_valid && 32'(p_raddr) < DEPTH) `PROP_ASSERT("inv: rdata = the word last read", rdata === mem_rd)
  end
endmodule
