// wr_counters: the weight reader's job counters (GROUPS_DONE, DENSE_OUT, COMP_BYTES, ZEROS, CYCLES, BEATS,
// OUT_BEATS).
//
// Interface: `clear` (START taken) zeroes every counter. While `busy` (STATUS.BUSY) CYCLES counts clock cycles
// and BEATS the AXI R beats accepted (`r_beat`, drained beats after an error included). Every transfer on
// m_axis (`pop`) adds one to OUT_BEATS, its kept bytes (`pop_bytes`) to DENSE_OUT and, with tlast, one to
// GROUPS_DONE. Every beat the expander makes (`push`) adds the zero elements it restored to ZEROS and the
// weight-surface bytes it used to COMP_BYTES (pushed beats always leave the queue before DONE).
`timescale 1ns/1ps
module wr_counters (
  input  logic        clk,
  input  logic        rst,
  input  logic        clear,
  input  logic        busy,
  input  logic        r_beat,
  input  logic        pop,
  input  logic        pop_last,
  input  logic [7:0]  pop_bytes,
  input  logic        push,
  input  logic [7:0]  push_zeros,
  input  logic [7:0]  push_comp,
  output logic [31:0] groups_done,
  output logic [31:0] dense_out,
  output logic [31:0] comp_bytes,
  output logic [31:0] zeros,
  output logic [31:0] cycles,
  output logic [31:0] beats,
  output logic [31:0] out_beats
);

  always_ff @(posedge clk) begin
    if (rst || clear) begin
      groups_done <= '0;
      dense_out   <= '0;
      comp_bytes  <= '0;
      zeros       <= '0;
      cycles      <= '0;
      beats       <= '0;
      out_beats   <= '0;
    end else begin
      if (busy) cycles <= cycles + 32'd1;
      if (busy && r_beat) beats <= beats + 32'd1;
      if (pop) begin
        out_beats <= out_beats + 32'd1;
        dense_out <= dense_out + 32'(pop_bytes);
        if (pop_last) groups_done <= groups_done + 32'd1;
      end
      if (push) begin
        zeros      <= zeros + 32'(push_zeros);
        comp_bytes <= comp_bytes + 32'(push_comp);
      end
    end
  end

endmodule
