// formal_atom_fifo: formal top of the cube reader's output queue (atom_fifo), the block that drives its
// m_axis: AXI4-Stream source properties (axis_source_props, TREADY free) plus the queue's contract: the writer
// never pushes when count == 2 (assumed, as atom_fifo documents), and the transfers leave in push order with
// their data, tuser and tlast (asserted against a 2-entry shadow queue), count = atoms queued, pop = the
// handshake.
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

  // ---------------------------------------------------------------- the queue's contract
  logic [AB*8+64:0] s_q [2];            // {last, user, data}
  logic [1:0]       s_n;
  logic             s_pop;
  assign s_pop = m_axis_tvalid && m_axis_tready;

  always @(posedge clk) begin
    if (!rst && count == 2'd2) assume (!push);
    if (rst) begin
      s_n <= '0;
    end else begin
      if (s_pop) s_q[0] <= s_q[1];
      if (push) begin
        if (s_n - 2'(s_pop) == 2'd0) s_q[0] <= {push_last, push_user, push_data};
        else                         s_q[1] <= {push_last, push_user, push_data};
      end
      s_n <= s_n + 2'(push) - 2'(s_pop);
    end
  end

  always @(posedge clk) begin
    if (!rst) begin
      assert (count == s_n);
      assert (m_axis_tvalid == (s_n != 2'd0));
      assert (pop == s_pop);
      if (s_n != 2'd0) assert ({m_axis_tlast, m_axis_tuser, m_axis_tdata} == s_q[0]);
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{pop_nan, pop_inf};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
