// wr_wgs_unpack: splits the WGS beats (one little-endian uint32 per kernel group, Table 35 / clarifications
// section 7) into a queue of entries for the expander, and sums the entries as they arrive for the weight-data
// read limit.
//
// Interface: beat (valid/pop) from wr_fetch's WGS queue: {hi lane, lo lane, data}; every WGS piece starts on
// a bus word, so the entries of a beat are lanes lo/4 .. hi/4. One entry per cycle goes into the entry queue
// (`ent_*`, pop by the expander at the start of each group).
// Read limit: `arr_valid` / `arr_beat` is a WGS beat entering wr_fetch's queue (same layout). `sum` adds all
// the entries of an arriving beat in the cycle after it arrives (48 bits: 65535 entries of up to 2**32-1) and
// `all_in` = GROUPS entries arrived. The limit so covers every WGS entry received (the WGS queue and the entry
// queue, WGS_DEPTH beats + ENT_DEPTH entries ahead of the expander), not only the unpacked ones: unpacking runs
// at one entry per cycle, the expander's own rate for one-transfer groups, so a sum of unpacked entries never
// gets further ahead than the job's start left it (nightly 20261127: 0.88 transfers per cycle for 32-byte
// groups at latency 128). init empties everything for a new job.
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
  input  logic          arr_valid,
  input  logic [QW-1:0] arr_beat,
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
  localparam int NE = AXI_DATA_W / 32;          // entries per beat

  logic [AXI_DATA_W-1:0] data;
  logic [LB-1:0]         lo, hi;
  logic [EW-1:0]         j;          // next entry of the head beat (relative to lo/4)
  logic [EW-1:0]         j_abs, j_last;
  logic [31:0]           value, pushed, arrived;
  logic                  push, full, empty;
  logic [$clog2(ENT_DEPTH+1)-1:0] count;

  assign {hi, lo, data} = beat;
  assign j_abs  = EW'(lo >> 2) + j;
  assign j_last = EW'(hi >> 2);
  assign value  = data[32 * j_abs +: 32];
  assign push   = beat_valid && !full && (pushed != groups);
  assign beat_pop = beat_valid && ((push && j_abs == j_last) || pushed == groups);
  assign ent_valid = !empty;
  assign all_in = (arrived == groups);

  // the entries of an arriving beat: their sum and their number
  logic [AXI_DATA_W-1:0] a_data;
  logic [LB-1:0]         a_lo, a_hi;
  logic [EW-1:0]         a_first, a_last;
  logic [47:0]           a_sum;
  logic [31:0]           a_n;
  assign {a_hi, a_lo, a_data} = arr_beat;
  assign a_first = EW'(a_lo >> 2);
  assign a_last  = EW'(a_hi >> 2);
  assign a_n     = 32'(a_last) - 32'(a_first) + 32'd1;
  always_comb begin
    a_sum = '0;
    for (int k = 0; k < NE; k++)
      if (EW'(k) >= a_first && EW'(k) <= a_last) a_sum = a_sum + 48'(a_data[32 * k +: 32]);
  end

  sync_fifo #(.W(32), .DEPTH(ENT_DEPTH)) u_ent (
    .clk, .rst, .clear (init), .push, .din (value), .pop (ent_pop), .dout (ent), .empty, .full, .count
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{count, lo[1:0], hi[1:0], a_lo[1:0], a_hi[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk) begin
    if (rst || init) begin
      j      <= '0;
      pushed <= '0;
    end else if (push) begin
      j      <= (j_abs == j_last) ? '0 : j + EW'(1);
      pushed <= pushed + 32'd1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst || init) begin
      sum     <= '0;
      arrived <= '0;
    end else if (arr_valid) begin
      sum     <= sum + a_sum;
      arrived <= arrived + a_n;
    end
  end

endmodule
