// job_counters: a job's counters, shared by the cube reader (registers ATOMS_SENT, NAN_COUNT, INF_COUNT, CYCLES,
// BEATS) and the pixel reader (PIXELS, SATURATED, LINES, CYCLES, BEATS: the same counters, other meanings).
//
// Interface: `clear` (START taken) zeroes every counter; while `busy` (STATUS.BUSY) CYCLES counts clock
// cycles and BEATS the AXI R beats accepted (`r_beat`, drained beats after an error included); every atom
// leaving m_axis (`pop`) adds one to ATOMS_SENT and its fp16 NaN / infinity elements to the two others.
`timescale 1ns/1ps
module job_counters (
  input  logic        clk,
  input  logic        rst,
  input  logic        clear,
  input  logic        busy,
  input  logic        r_beat,
  input  logic        pop,
  input  logic [7:0]  pop_nan,
  input  logic [7:0]  pop_inf,
  output logic [31:0] atoms_sent,
  output logic [31:0] nan_total,
  output logic [31:0] inf_total,
  output logic [31:0] cycles,
  output logic [31:0] beats
);

  always_ff @(posedge clk) begin
    if (rst || clear) begin
      atoms_sent <= '0;
      nan_total  <= '0;
      inf_total  <= '0;
      cycles     <= '0;
      beats      <= '0;
    end else begin
      if (busy) cycles <= cycles + 32'd1;
      if (busy && r_beat) beats <= beats + 32'd1;
      if (pop) begin
        atoms_sent <= atoms_sent + 32'd1;
        nan_total  <= nan_total + 32'(pop_nan);
        inf_total  <= inf_total + 32'(pop_inf);
      end
    end
  end

endmodule
