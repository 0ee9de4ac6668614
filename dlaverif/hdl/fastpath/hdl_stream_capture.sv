// hdl_stream_capture: testbench-only AXI4-Stream sink for the HDL-side fast path (MEM=hdl, dlaverif/fastpath/harness.py):
// drives TREADY from a stall pattern (hdl_stall.sv) and records every transfer, so that Python reads a whole
// job's output in bulk. Never part of blocks/rtl/.
//
// Files (simulator working directory), binary: read with $fread (each word most significant byte first), written
// with $fwrite "%u" (each word least significant byte first); both simulators agree on these orders:
//   hdl_cfg.bin  (read, shared with hdl_axi_mem) [33] TREADY stall mode, [34] its param, [35] its seed
//   hdl_od.bin   (write) the kept bytes of every transfer, back to back in 64-bit chunks: a transfer whose
//                        highest TKEEP bit is byte b takes the low ceil((b+1)/8) chunks of TDATA
//   hdl_om.bin   (write) one 256-bit word per transfer: [127:0] TKEEP, [191:128] TUSER, [192] TLAST,
//                        [239:200] cycle of the handshake
//   hdl_ocnt.bin (write) 8 x 64-bit: [0] transfers, [1] stall cycles (TVALID & !TREADY), [2] protocol violations,
//                        [3] cycle of the first violation, [4] kinds seen (1: payload changed while stalled,
//                        2: TVALID dropped before TREADY, 4: X/Z in TKEEP/TUSER/TLAST or kept TDATA bytes),
//                        [5] overflow (1: more transfers than DEPTH or chunks than CHUNKS), [6] chunks
// Transfers while `rst` is high are neither recorded nor checked (as dlaverif/agents/stream.py).
`timescale 1ns / 1ps
module hdl_stream_capture #(
  parameter int DATA_BYTES = 128,
  parameter int DEPTH      = 1 << 18,
  parameter int CHUNKS     = 1 << 20
) (
  input  logic                    clk,
  input  logic                    rst,
  input  logic                    load_tgl,
  input  logic                    dump_tgl,
  input  logic [39:0]             cyc,
  input  logic [DATA_BYTES*8-1:0] tdata,
  input  logic [DATA_BYTES-1:0]   tkeep,
  input  logic                    tlast,
  input  logic [63:0]             tuser,
  input  logic                    tvalid,
  output logic                    tready
);
  localparam int NCH = DATA_BYTES / 8;
  logic [63:0]             od  [0:CHUNKS-1];
  logic [255:0]            om  [0:DEPTH-1];
  logic [63:0]             cfg [0:63];
  logic [63:0]             cnt [0:7];
  int                      n_out, n_ch;
  logic [63:0]             stalls, viols, first_viol, kinds, ovf;
  logic                    load_seen, dump_seen, stall, stalled;
  integer                  fd, rc;
  logic [DATA_BYTES*8+DATA_BYTES+64:0] held;   // the transfer held by !TREADY

  hdl_stall u_tready (.clk, .load(load_tgl != load_seen), .mode_in(cfg[33][1:0]), .param_in(cfg[34][31:0]),
                      .seed_in(cfg[35][31:0]), .stall(stall));
  assign tready = !stall;

  initial begin
    for (int i = 0; i < 64; i++) cfg[i] = 64'd0;
    load_seen = 1'b0;
    dump_seen = 1'b0;
    n_out = 0;
    n_ch = 0;
    stalls = 64'd0;
    viols = 64'd0;
    first_viol = 64'd0;
    kinds = 64'd0;
    ovf = 64'd0;
    stalled = 1'b0;
  end

  task automatic violation(input logic [63:0] kind);
    if (viols == 64'd0) first_viol = 64'(cyc);
    viols = viols + 64'd1;
    kinds = kinds | kind;
  endtask

  always @(posedge clk) begin : capture
    logic [DATA_BYTES*8+DATA_BYTES+64:0] now;
    if (load_tgl != load_seen) begin
      load_seen <= load_tgl;
      fd = $fopen("hdl_cfg.bin", "rb");
      rc = $fread(cfg, fd);
      $fclose(fd);
    end
    if (dump_tgl != dump_seen) begin
      dump_seen <= dump_tgl;
      cnt[0] = 64'(n_out);
      cnt[1] = stalls;
      cnt[2] = viols;
      cnt[3] = first_viol;
      cnt[4] = kinds;
      cnt[5] = ovf;
      cnt[6] = 64'(n_ch);
      cnt[7] = 64'd0;
      fd = $fopen("hdl_od.bin", "wb");
      for (int i = 0; i < n_ch && i < CHUNKS; i++) $fwrite(fd, "%u", od[i]);
      $fclose(fd);
      fd = $fopen("hdl_om.bin", "wb");
      for (int i = 0; i < n_out && i < DEPTH; i++) $fwrite(fd, "%u", om[i]);
      $fclose(fd);
      fd = $fopen("hdl_ocnt.bin", "wb");
      for (int i = 0; i < 8; i++) $fwrite(fd, "%u", cnt[i]);
      $fclose(fd);
      n_out = 0;
      n_ch = 0;
      stalls = 64'd0;
      viols = 64'd0;
      kinds = 64'd0;
      ovf = 64'd0;
    end
    now = {tlast, tuser, tkeep, tdata};
    if (rst) begin
      stalled = 1'b0;
    end else if (tvalid && tready) begin
      if (stalled && now !== held) violation(64'd1);
      if ((^{tkeep, tuser, tlast}) === 1'bx || (^tdata_kept) === 1'bx)
        violation(64'd4);
      if (n_out < DEPTH && n_ch + NCH <= CHUNKS) begin
        for (int k = 0; k < NCH; k++) begin
          if (k < n_kept) od[n_ch + k] = tdata[k*64 +: 64];
        end
        om[n_out] = {16'd0, cyc, 7'd0, tlast, tuser, 128'(tkeep)};
      end else begin
        ovf = 64'd1;
      end
      n_out = n_out + 1;
      n_ch = n_ch + n_kept;
      stalled = 1'b0;
    end else if (tvalid) begin
      stalls = stalls + 64'd1;
      if (stalled && now !== held) violation(64'd1);
      held = now;
      stalled = 1'b1;
    end else if (stalled) begin
      violation(64'd2);
      stalled = 1'b0;
    end
  end

  // The kept bytes of TDATA (others 0, so that X/Z outside the atom is not reported) and the 64-bit chunks up to
  // the highest kept byte, as nets: computed per transfer in the block above (a function looping over the bytes,
  // another over the chunks once per chunk), they were most of Icarus's time in this module.
  logic [DATA_BYTES*8-1:0] tdata_kept;
  logic [NCH-1:0]          chunk_kept;   // chunk i holds a kept byte
  int                      n_kept;       // chunks up to the highest kept one
  logic [DATA_BYTES*8-1:0] keep_mask;    // TKEEP, one byte of ones per kept byte (changes with the atom size only)
  for (genvar i = 0; i < DATA_BYTES; i++) begin : g_kept
    assign keep_mask[i*8 +: 8] = {8{tkeep[i]}};
  end
  assign tdata_kept = tdata & keep_mask;
  for (genvar i = 0; i < NCH; i++) begin : g_chunk
    assign chunk_kept[i] = |tkeep[i*8 +: 8];
  end
  always_comb begin
    n_kept = 0;
    for (int i = 0; i < NCH; i++) if (chunk_kept[i]) n_kept = i + 1;
  end
endmodule
