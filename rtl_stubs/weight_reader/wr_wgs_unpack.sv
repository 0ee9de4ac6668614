// wr_wgs_unpack: splits the WGS beats (one little-endian uint32 per kernel group, Table 35 / clarifications
// section 7) into a queue of entries for the expander, and sums them for the weight-data read limit.
//
// Interface: beat (valid/pop) from wr_fetch's WGS queue: {hi lane, lo lane, data}; every WGS piece starts on
// a bus word, so the entries of a beat are lanes lo/4 .. hi/4. One entry per cycle goes into the entry queue
// (`ent_*`, pop by the expander at the start of each group). `sum` = the entries queued so far (48 bits: 65535
// entries of up to 2**32-1), `all_in` = GROUPS entries queued. init empties everything for a new job.
`timescale 1ns/1ps
module wr_wgs_unpack #(
  parameter int AXI_DATA_W = 256,
  parameter int ENT_DEPTH  = 8,
  localparam int LB        = $clog2(AXI_DATA_W / 8),
  localparam int QW        = AXI_DATA_W + 2 * LB
) (
  input  logic          clk,
  input  logic          rst,
  input  logic          init,
  input  logic [31:0]   groups,
  input  logic          beat_valid,
  input  logic [QW-1:0] beat,
  output logic          beat_pop,
  output logic          ent_valid,
  output logic [31:0]   ent,
  input  logic          ent_pop,
  output logic [47:0]   sum,
  output logic          all_in
);

  localparam int EW = (LB > 2) ? LB - 2 : 1;    // entry index in a beat

  logic [AXI_DATA_W-1:0] data;
  logic [LB-1:0]         lo, hi;
  logic [EW-1:0]         j;          // next entry of the head beat (relative to lo/4)
  logic [EW-1:0]         j_abs, j_last;
  logic [31:0]           value, pushed;
  logic                  push, full, empty;
  logic [$clog2(ENT_DEPTH+1)-1:0] count;

  assign {hi, lo, data} = beat;
  assign j_abs  = EW'(lo >> 2) + j;
  assign j_last = EW'(hi >> 2);
  assign value  = data[32 * j_abs +: 32];
  assign push   = beat_valid && !full && (pushed != groups);
  assign beat_pop = beat_valid && ((push && j_abs == j_last) || pushed == groups);
  assign ent_valid = !empty;
  assign all_in = (pushed == groups);

  sync_fifo #(.W(32), .DEPTH(ENT_DEPTH)) u_ent (
    .clk, .rst, .clear (init), .push, .din (value), .pop (ent_pop), .dout (ent), .empty, .full, .count
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{count, lo[1:0], hi[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk) begin
    if (rst || init) begin
      j      <= '0;
      sum    <= '0;
      pushed <= '0;
    end else if (push) begin
      j      <= (j_abs == j_last) ? '0 : j + EW'(1);
      sum    <= sum + 48'(value);
      pushed <= pushed + 32'd1;
    end
  end

endmodule
