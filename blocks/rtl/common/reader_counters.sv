// reader_counters: a reader's job counters (instantiated once, in reader_shell): CYCLES, BEATS and N sums the
// reader names in its register map (the cube reader: ATOMS_SENT, NAN_COUNT, INF_COUNT; the pixel reader: PIXELS,
// SATURATED, LINES; the weight reader: OUT_BEATS, DENSE_OUT, GROUPS_DONE, ZEROS, COMP_BYTES).
//
// No registers of its own: reader_shell places every counter at the offset the reader's map gives it.
//
// Interface: `clear` (START taken) zeroes every counter. While `busy` (STATUS.BUSY) `cycles` counts clock cycles
// and `beats` the AXI R beats accepted (`r_beat`, drained beats after an error included). Sum i adds
// add_val[8*i +: 8] in every cycle with add_en[i] (a count of events: add_val 1). 32-bit counters wrap.
`timescale 1ns/1ps
module reader_counters #(
  parameter int N = 1
) (
  input  logic            clk,
  input  logic            rst,
  input  logic            clear,
  input  logic            busy,
  input  logic            r_beat,
  input  logic [N-1:0]    add_en,
  input  logic [8*N-1:0]  add_val,
  output logic [32*N-1:0] sums,
  output logic [31:0]     cycles,
  output logic [31:0]     beats
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("N"), .VALUE (N), .LO (1), .HI (16)) u_contract_n ();

  always_ff @(posedge clk) begin
    if (rst || clear) begin
      sums   <= '0;
      cycles <= '0;
      beats  <= '0;
    end else begin
      if (busy) cycles <= cycles + 32'd1;
      if (busy && r_beat) beats <= beats + 32'd1;
      for (int i = 0; i < N; i++)
        if (add_en[i]) sums[32*i +: 32] <= sums[32*i +: 32] + 32'(add_val[8*i +: 8]);
    end
  end

endmodule
