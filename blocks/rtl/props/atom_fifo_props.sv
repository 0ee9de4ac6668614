// atom_fifo_props: the output queue's property bundle, bound inside atom_fifo under DLA_ASSERT (its ports and its
// pointers, count and two entries, named at the bind site).
// The queue's contract against a 2-entry shadow queue (written from atom_fifo.sv's header): the writer never
// pushes when count == 2 (asserted here: an obligation of the parent, cr_atom_assembler / pixel_reader; the
// formal top formal_atom_fifo assumes it), and the transfers leave in push order with their data, tuser and tlast,
// count = atoms queued, TVALID = not empty, pop = the handshake.
// Invariants tying the queue's own state to the shadow's, true of the design (BMC proves them with the rest) and
// what makes the contract provable by k-induction (dlaverif/flow/formal.py, Proof.prove): the count never exceeds 2,
// the write pointer is the read pointer plus the count, and with two atoms queued the entry behind the head is the
// shadow's second (without it a stale second entry can wait any number of cycles before it reaches the head).
// Payload comparisons use === so that a payload with X bits (Icarus) compares equal to its own copy.
`timescale 1ns/1ps
`include "prop_macros.svh"
module atom_fifo_props #(
  parameter int AB = 128
) (
  input  logic            clk,
  input  logic            rst,
  input  logic            push,
  input  logic [AB*8-1:0] push_data,
  input  logic [63:0]     push_user,
  input  logic            push_last,
  input  logic [AB*8-1:0] m_axis_tdata,
  input  logic            m_axis_tlast,
  input  logic [63:0]     m_axis_tuser,
  input  logic            m_axis_tvalid,
  input  logic            m_axis_tready,
  input  logic            pop,
  input  logic [1:0]      count,
  // the queue's internal state (atom_fifo.sv)
  input  logic            q_wp,
  input  logic            q_rp,
  input  logic [AB*8+64:0] q_ent0,       // entry 0: {last, user, data}
  input  logic [AB*8+64:0] q_ent1        // entry 1
);

  `PROP_REPORTER

  logic [AB*8+64:0] s_q [2];            // {last, user, data}, s_q[0] the head
  logic [1:0]       s_n;
  logic             s_pop;
  assign s_pop = m_axis_tvalid && m_axis_tready;

  always @(posedge clk) begin
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
      if (count == 2'd2) `PROP_ASSERT("no push when full", !push)
      `PROP_ASSERT("count = atoms queued", count == s_n)
      `PROP_ASSERT("TVALID = not empty", m_axis_tvalid == (s_n != 2'd0))
      `PROP_ASSERT("pop = the handshake", pop == s_pop)
      if (s_n != 2'd0)
        `PROP_ASSERT("head = the oldest atom pushed", {m_axis_tlast, m_axis_tuser, m_axis_tdata} === s_q[0])
      // invariants
      `PROP_ASSERT("inv: count <= 2", count != 2'd3)
      `PROP_ASSERT("inv: write pointer = read pointer + count", q_wp == (q_rp ^ count[0]))
      if (count == 2'd2) `PROP_ASSERT("inv: entry behind the head = the shadow's", (q_rp ? q_ent0 : q_ent1) === s_q[1])
    end
  end

endmodule
