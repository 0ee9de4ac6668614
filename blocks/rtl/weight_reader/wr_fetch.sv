// wr_fetch: the weight reader's read scheduler on the one axi_rd_engine: three byte streams (WGS, WMB and
// weight data), each read in CHUNK-aligned pieces into its own bounded beat queue, commands interleaved on
// the engine and the returning beats routed back by a tag queue (the engine returns beats in command order).
//
// Streams (byte offsets from the surface base; every base is 256-byte aligned, so chunks of CHUNK_BEATS bus
// words start on a bus word):
//   WGS     4*GROUPS bytes from wgs_base (compressed only)
//   WMB     wmb_len = ceil(dense elements / 8) bytes from wmb_base (compressed only)
//   weight  up to data_limit bytes from weight_base: the dense bytes, or, compressed, the sum of the WGS
//           entries received so far clamped to WEIGHT_BYTES (data_final: the limit will not grow any more).
//           A piece ends at the limit or the next chunk boundary; while the limit may still grow, a piece
//           shorter than that is read only when the weight queue has nothing in it or in flight (so a
//           sparse job never waits for data it needs, and re-reads a bus word only then).
// Credits: a command is issued only when its beats fit in its queue (queued + in flight <= depth), so the
// router never blocks the engine. Priority WGS, WMB, weight.
// Router: a beat goes to the queue named by the head of the tag queue with its byte lanes (rd_lo, rd_hi);
// the tag is popped on the command's last beat. A beat with RRESP SLVERR/DECERR is not queued: bus_err
// pulses with bus_decerr and bus_surface (accel_csr_pkg WR_SURFACE_*); the job control stops the engine.
// init (a cycle before the job runs) loads the stream sizes and empties every queue; issuing happens
// only while `run`.
`timescale 1ns/1ps
module wr_fetch
  import accel_csr_pkg::*;
#(
  parameter int AXI_ADDR_W  = 40,
  parameter int AXI_DATA_W  = 256,
  parameter int LEN_W       = AXI_ADDR_W + 1,
  parameter int CHUNK_BEATS = 4,
  parameter int DATA_DEPTH  = 160,
  parameter int WMB_DEPTH   = 32,
  parameter int WGS_DEPTH   = 16,
  parameter int TAG_DEPTH   = 65,     // commands in flight: the engine's bursts in flight + 1
  localparam int LB         = $clog2(AXI_DATA_W / 8),
  localparam int QW         = AXI_DATA_W + 2 * LB
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  init,
  input  logic                  run,
  input  logic                  compressed,
  input  logic [AXI_ADDR_W-1:0] weight_base,
  input  logic [AXI_ADDR_W-1:0] wmb_base,
  input  logic [AXI_ADDR_W-1:0] wgs_base,
  input  logic [32:0]           wmb_len,
  input  logic [32:0]           wgs_len,
  input  logic [32:0]           data_limit,
  input  logic                  data_final,

  output logic                  cmd_valid,
  input  logic                  cmd_ready,
  output logic [AXI_ADDR_W-1:0] cmd_addr,
  output logic [LEN_W-1:0]      cmd_len,
  input  logic                  rd_valid,
  output logic                  rd_ready,
  input  logic [AXI_DATA_W-1:0] rd_data,
  input  logic [1:0]            rd_resp,
  input  logic                  rd_last,
  input  logic [LB-1:0]         rd_lo,
  input  logic [LB-1:0]         rd_hi,

  output logic                  bus_err,
  output logic                  bus_decerr,
  output logic [1:0]            bus_surface,

  output logic                  wgs_arrive,      // a WGS beat enters its queue: arrive_beat, as queued
  output logic [QW-1:0]         arrive_beat,     // the bus beat in the queues' layout {rd_hi, rd_lo, rd_data}
  output logic                  wgs_valid,
  output logic [QW-1:0]         wgs_beat,
  input  logic                  wgs_pop,
  output logic                  wmb_valid,
  output logic [QW-1:0]         wmb_beat,
  input  logic                  wmb_pop,
  output logic                  dat_valid,
  output logic [QW-1:0]         dat_beat,
  input  logic                  dat_pop
);

  localparam int BW  = AXI_DATA_W / 8;
  localparam int CH  = CHUNK_BEATS * BW;            // bytes per chunk (power of two)
  localparam int RW  = 16;                           // reservation counters (depths < 32768)

  // ---------------------------------------------------------------- the three streams
  logic [32:0] off   [3];      // 0 WGS, 1 WMB, 2 weight
  logic [32:0] limit [3];
  logic [RW-1:0] resv [3];     // beats queued or in flight per stream
  logic [RW-1:0] depth [3];
  logic [32:0] rem [3], to_bnd [3], plen [3];
  logic [32:0] pbeats [3];
  logic        elig [3];
  logic [1:0]  sel;
  logic        any;
  logic [AXI_ADDR_W-1:0] base [3];

  assign base[0]  = wgs_base;
  assign base[1]  = wmb_base;
  assign base[2]  = weight_base;
  assign limit[0] = compressed ? wgs_len : 33'd0;
  assign limit[1] = compressed ? wmb_len : 33'd0;
  assign limit[2] = data_limit;
  assign depth[0] = RW'(WGS_DEPTH);
  assign depth[1] = RW'(WMB_DEPTH);
  assign depth[2] = RW'(DATA_DEPTH);

  always_comb begin
    for (int s = 0; s < 3; s++) begin
      rem[s]    = (limit[s] > off[s]) ? limit[s] - off[s] : 33'd0;
      to_bnd[s] = 33'(CH) - (off[s] & 33'(CH - 1));
      plen[s]   = (rem[s] < to_bnd[s]) ? rem[s] : to_bnd[s];
      pbeats[s] = ((off[s] + plen[s] - 33'd1) >> LB) - (off[s] >> LB) + 33'd1;
      elig[s]   = run && (rem[s] != 33'd0) && (33'(resv[s]) + pbeats[s] <= 33'(depth[s]));
    end
    // the weight stream waits for a whole chunk while its limit may still grow, unless it starves
    if (!(rem[2] >= to_bnd[2] || data_final || resv[2] == '0)) elig[2] = 1'b0;
    any = elig[0] || elig[1] || elig[2];
    sel = elig[0] ? 2'd0 : (elig[1] ? 2'd1 : 2'd2);
  end

  logic tag_full;
  assign cmd_valid = any && !tag_full;
  assign cmd_addr  = base[sel] + AXI_ADDR_W'(off[sel]);
  assign cmd_len   = LEN_W'(plen[sel]);

  logic cmd_fire;
  assign cmd_fire = cmd_valid && cmd_ready;

  // ---------------------------------------------------------------- tag queue and router
  logic       tag_empty;
  logic [1:0] tag_head;
  logic [$clog2(TAG_DEPTH+1)-1:0] tag_count;
  logic       rd_fire, beat_bad, q_push [3], q_full [3], q_empty [3];

  logic dest_full;
  assign dest_full = (tag_head == 2'd0) ? q_full[0] : (tag_head == 2'd1) ? q_full[1] : q_full[2];
  assign rd_ready = !tag_empty && !dest_full;
  assign rd_fire  = rd_valid && rd_ready;
  assign beat_bad = rd_resp[1];

  sync_fifo #(.W(2), .DEPTH(TAG_DEPTH)) u_tags (
    .clk, .rst, .clear (init), .push (cmd_fire), .din (sel), .pop (rd_fire && rd_last),
    .dout (tag_head), .empty (tag_empty), .full (tag_full), .count (tag_count)
  );

  assign bus_err     = rd_fire && beat_bad;
  assign bus_decerr  = rd_resp[0];
  assign bus_surface = (tag_head == 2'd0) ? 2'(WR_SURFACE_WGS)
                     : (tag_head == 2'd1) ? 2'(WR_SURFACE_WMB) : 2'(WR_SURFACE_WEIGHT);

  logic [QW-1:0] q_in;
  assign q_in = {rd_hi, rd_lo, rd_data};
  assign arrive_beat = q_in;
  logic pops [3];
  assign pops[0] = wgs_pop;
  assign pops[1] = wmb_pop;
  assign pops[2] = dat_pop;

  logic [QW-1:0] q_out [3];
  logic [$clog2(DATA_DEPTH+1)-1:0] cnt_d;
  logic [$clog2(WMB_DEPTH+1)-1:0]  cnt_m;
  logic [$clog2(WGS_DEPTH+1)-1:0]  cnt_g;

  always_comb for (int s = 0; s < 3; s++) q_push[s] = rd_fire && !beat_bad && (tag_head == 2'(s));

  sync_fifo #(.W(QW), .DEPTH(WGS_DEPTH)) u_q_wgs (
    .clk, .rst, .clear (init), .push (q_push[0]), .din (q_in), .pop (pops[0]),
    .dout (q_out[0]), .empty (q_empty[0]), .full (q_full[0]), .count (cnt_g)
  );
  sync_fifo #(.W(QW), .DEPTH(WMB_DEPTH)) u_q_wmb (
    .clk, .rst, .clear (init), .push (q_push[1]), .din (q_in), .pop (pops[1]),
    .dout (q_out[1]), .empty (q_empty[1]), .full (q_full[1]), .count (cnt_m)
  );
  sync_fifo #(.W(QW), .DEPTH(DATA_DEPTH)) u_q_dat (
    .clk, .rst, .clear (init), .push (q_push[2]), .din (q_in), .pop (pops[2]),
    .dout (q_out[2]), .empty (q_empty[2]), .full (q_full[2]), .count (cnt_d)
  );
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{tag_count, cnt_d, cnt_m, cnt_g, pbeats[0][32:RW], pbeats[1][32:RW], pbeats[2][32:RW]};
  /* verilator lint_on UNUSEDSIGNAL */

  // q_push[0] spelled out: a continuous assignment reading a word of q_push (written in always_comb) made Icarus 11
  // mis-evaluate the router (the engine's RREADY property failed on the fast path; Verilator was right)
  assign wgs_arrive = rd_fire && !beat_bad && (tag_head == 2'd0);
  assign wgs_valid = !q_empty[0];
  assign wmb_valid = !q_empty[1];
  assign dat_valid = !q_empty[2];
  assign wgs_beat  = q_out[0];
  assign wmb_beat  = q_out[1];
  assign dat_beat  = q_out[2];

  // ---------------------------------------------------------------- offsets and reservations
  always_ff @(posedge clk) begin
    if (rst || init) begin
      for (int s = 0; s < 3; s++) begin
        off[s]  <= '0;
        resv[s] <= '0;
      end
    end else begin
      for (int s = 0; s < 3; s++) begin
        if (cmd_fire && sel == 2'(s)) off[s] <= off[s] + plen[s];
        resv[s] <= resv[s] + ((cmd_fire && sel == 2'(s)) ? RW'(pbeats[s]) : RW'(0))
                           - RW'(pops[s] && !q_empty[s]);
      end
    end
  end

endmodule
