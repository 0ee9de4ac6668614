// atom_fifo: a 2-entry output queue of atoms driving m_axis, shared by the cube reader (atoms) and the pixel
// reader (one atom per pixel; its side counts carry saturated components and the end-of-line flag there).
//
// Interface:
//   push (with data/user/last and the atom's fp16 nan/inf counts)   one atom in; the writer must not push
//                                  when count == 2 (cr_atom_assembler lowers RREADY instead)
//   m_axis_tvalid/tready/tdata/tuser/tlast   the head atom (tkeep is the job's, driven by the assembler)
//   pop, pop_nan, pop_inf          an atom left (tvalid && tready) and its fp16 counts, for the counters
//   count                          occupancy 0..2
`timescale 1ns/1ps
module atom_fifo #(
  parameter int AB = 128                 // bytes of the largest atom
) (
  input  logic            clk,
  input  logic            rst,
  input  logic            push,
  input  logic [AB*8-1:0] push_data,
  input  logic [63:0]     push_user,
  input  logic            push_last,
  input  logic [7:0]      push_nan,
  input  logic [7:0]      push_inf,
  output logic [AB*8-1:0] m_axis_tdata,
  output logic            m_axis_tlast,
  output logic [63:0]     m_axis_tuser,
  output logic            m_axis_tvalid,
  input  logic            m_axis_tready,
  output logic            pop,
  output logic [7:0]      pop_nan,
  output logic [7:0]      pop_inf,
  output logic [1:0]      count
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("AB"),    .VALUE (AB),    .LO (8), .HI (128), .POW2 (1)) u_contract_ab ();

  logic [AB*8-1:0] q_data [2];
  logic [63:0]     q_user [2];
  logic            q_last [2];
  logic [7:0]      q_nan  [2];
  logic [7:0]      q_inf  [2];
  logic            q_wp, q_rp;
  logic [1:0]      q_cnt;

  assign count         = q_cnt;
  assign m_axis_tvalid = (q_cnt != 2'd0);
  assign m_axis_tdata  = q_data[q_rp];
  assign m_axis_tuser  = q_user[q_rp];
  assign m_axis_tlast  = q_last[q_rp];
  assign pop           = m_axis_tvalid && m_axis_tready;
  assign pop_nan       = q_nan[q_rp];
  assign pop_inf       = q_inf[q_rp];

  always_ff @(posedge clk) begin
    if (rst) begin
      q_wp  <= 1'b0;
      q_rp  <= 1'b0;
      q_cnt <= '0;
      for (int i = 0; i < 2; i++) begin
        q_data[i] <= '0;
        q_user[i] <= '0;
        q_last[i] <= 1'b0;
        q_nan[i]  <= '0;
        q_inf[i]  <= '0;
      end
    end else begin
      if (push) begin
        q_data[q_wp] <= push_data;
        q_user[q_wp] <= push_user;
        q_last[q_wp] <= push_last;
        q_nan[q_wp]  <= push_nan;
        q_inf[q_wp]  <= push_inf;
        q_wp         <= !q_wp;
      end
      if (pop) q_rp <= !q_rp;
      q_cnt <= q_cnt + 2'(push) - 2'(pop);
    end
  end

`ifdef DLA_ASSERT
  // Assertions, not design (docs/formal.md): the queue's contract and the invariants tying its shadow queue to
  // this block's pointers and entries (they only read). Icarus 11 and Yosys 0.23 have no `bind`, so the one
  // binding is this instance; dlaverif/flow/runner.py and dlaverif/flow/formal.py define DLA_ASSERT, synthesis does not.
  atom_fifo_props #(.AB (AB)) u_props (
    .clk, .rst, .push, .push_data, .push_user, .push_last,
    .m_axis_tdata, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready, .pop, .count,
    .q_wp, .q_rp,
    .q_ent0 ({q_last[0], q_user[0], q_data[0]}),
    .q_ent1 ({q_last[1], q_user[1], q_data[1]})
  );
`endif

endmodule
