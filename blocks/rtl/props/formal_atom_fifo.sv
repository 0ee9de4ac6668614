// formal_atom_fifo: formal top of the cube reader's output queue (atom_fifo), the block that drives its
// m_axis: AXI4-Stream source properties (axis_source_props, TREADY free) plus the queue's contract, which the
// queue binds itself under DLA_ASSERT (atom_fifo_props: the transfers leave in push order with their data, tuser
// and tlast, against a 2-entry shadow queue; count = atoms queued, pop = the handshake; and the invariants that
// make it provable by k-induction). The writer never pushes when count == 2: assumed here, as atom_fifo
// documents (asserted by atom_fifo_props, where the readers' assemblers are the writer).
`timescale 1ns/1ps
module formal_atom_fifo #(
  parameter int AB = 8
) (
  input  logic            clk,
  input  logic            rst,
  input  logic            push,
  input  logic [AB*8-1:0] push_data,
  input  logic [63:0]     push_user,
  input  logic            push_last,
  input  logic [7:0]      push_nan,
  input  logic [7:0]      push_inf,
  input  logic            m_axis_tready
);
  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume (rst);
  end

  logic [AB*8-1:0] m_axis_tdata;
  logic            m_axis_tlast, m_axis_tvalid, pop;
  logic [63:0]     m_axis_tuser;
  logic [7:0]      pop_nan, pop_inf;
  logic [1:0]      count;

  atom_fifo #(.AB (AB)) dut (
    .clk, .rst, .push, .push_data, .push_user, .push_last, .push_nan, .push_inf,
    .m_axis_tdata, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready,
    .pop, .pop_nan, .pop_inf, .count
  );

  axis_source_props #(.DATA_W (AB * 8), .KEEP_W (1), .USER_W (64)) axis (
    .clk, .rst, .job_done (1'b0), .job_error (1'b0),
    .tdata (m_axis_tdata), .tkeep (1'b1), .tlast (m_axis_tlast), .tuser (m_axis_tuser),
    .tvalid (m_axis_tvalid), .tready (m_axis_tready)
  );

  // the writer's obligation (atom_fifo's header): no push when full (atom_fifo_props asserts it for the readers)
  always @(posedge clk) begin
    if (!rst && count == 2'd2) assume (!push);
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{pop_nan, pop_inf, pop};   // (pop: checked by atom_fifo_props)
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
