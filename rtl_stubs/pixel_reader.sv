// pixel_reader: reads a region of a pitch-linear NVDLA picture in any of the 36 pixel formats of seed Table 33
// (one or two planes) over AXI4, converts every component with the input converter (Equation 1 as the
// hardware does it, clarifications 2.3) and streams one 32-byte feature-data atom per pixel in w, h order.
// Reference models: models/nvdla/pixel.py (formats, packing, converter), models/pixel_desc.py (descriptor,
// validator).
//
// Register map (AXI4-Lite, 32-bit registers; the source of every offset, field, write mask and error bit
// is accel_pkg.sv: common REG_* and PR_*; tests/sim/test_regmap.py checks this table against it):
//   0x00 ID          RO  accel_pkg::PR_ID
//   0x04 PARAMS      RO  [15:0] AXI data width (256), [23:16] MAX_OUTSTANDING, [31:24] AXI_ADDR_W
//   0x08 CTRL        WO  [0] START (ignored while busy); reads 0
//   0x0C FORMAT      RW  [5:0] PIXEL_FORMAT, 0..35 in Table 33 order (36..63: error bit FORMAT)
//   0x10 STATUS      RO  [0] BUSY, [1] DONE (cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR       RO  [10:0] validator rules PR_ERR_FORMAT..PR_ERR_ADDR_OVERFLOW, [16] PR_ERR_BUS_SLVERR,
//                        [17] PR_ERR_BUS_DECERR (cleared by START)
//   0x18 WIDTH       RW  pixels per line, 1..8192
//   0x1C HEIGHT      RW  lines, 1..8192
//   0x20 X_OFFSET    RW  pixels skipped in the first 32-byte word of each line, 0..32/Bpp0-1
//   0x24 BASE0_LO    RW  plane 0 base [31:0] (32-byte aligned)
//   0x28 BASE0_HI    RW  plane 0 base [63:32]
//   0x2C STRIDE0     RW  plane 0 line stride, bytes (multiple of 32)
//   0x30 BASE1_LO    RW  plane 1 base [31:0] (N444 formats only)
//   0x34 BASE1_HI    RW  plane 1 base [63:32]
//   0x38 STRIDE1     RW  plane 1 line stride, bytes (N444 formats only)
//   0x3C CVT_CFG     RW  [1:0] OUT_PRECISION (0 int8, 1 int16, 2 fp16), [4] CVT_EN, [5] SIGN_OVERRIDE,
//                        [6] MEAN_EN, [13:8] CVT_TRUNCATE
//   0x40 CVT_OFFSET  RW  [15:0] signed offset of every channel
//   0x44 CVT_SCALE   RW  [15:0] signed scale of every channel
//   0x48 MEAN_0      RW  [15:0] MEAN_RY, [31:16] MEAN_GU (signed; used instead of CVT_OFFSET with MEAN_EN)
//   0x4C MEAN_1      RW  [15:0] MEAN_BV, [31:16] MEAN_AX
//   0x50 PIXELS      RO  pixels (atoms) handed over on m_axis by the last job
//   0x54 LINES       RO  lines whose last pixel was handed over
//   0x58 BEATS       RO  AXI R beats accepted by the last job (drained beats after an error included)
//   0x5C CYCLES      RO  clock cycles with STATUS.BUSY set
//   0x60 SATURATED   RO  components of the pixels sent that the converter clamped (int17, int8/int16, fp16)
//   Unmapped offsets (0x64..0xFC) answer SLVERR; writes to RO registers answer OKAY and are ignored.
//
// Structure (one module per file):
//   axil_regs       AXI4-Lite register file (write masks PR_WMASK_* of accel_pkg)
//   pr_job_ctrl     START, descriptor latch (pix_desc_t), pr_validator, job state, ERROR, DONE
//   pr_line_walker  lines -> axi_rd_engine commands (per line one per plane)
//   axi_rd_engine   AXI4 read master: INCR bursts, 4 KB split, MAX_OUTSTANDING bursts in flight
//   pr_unpacker     beats -> pixels through the format table (pr_format in accel_pkg), N444 line buffer
//                   (pr_line_buf)
//   pr_atom         four converter lanes (pr_convert) -> the 32-byte atom
//   atom_fifo       the 2-entry output queue (shared with the cube reader; its NaN/INF side counts carry the
//                   pixel's saturated components and its end-of-line flag here)
//   job_counters    PIXELS, SATURATED, LINES, CYCLES, BEATS (shared with the cube reader)
//
// Behaviour:
//   * START latches the descriptor registers; pr_validator checks them. An illegal descriptor sets its ERROR
//     bits and DONE without any AXI traffic.
//   * Per line y: one command for plane 0 at BASE0 + y*STRIDE0 + X_OFFSET*Bpp0 of WIDTH*Bpp0 bytes, then
//     (N444) one for plane 1 at BASE1 + y*STRIDE1 + (X_OFFSET*Bpp1 mod 32) of WIDTH*Bpp1 bytes.
//   * m_axis: one atom per transfer, tdata = the atom, tkeep all ones, tuser = {h, w} (16 bits each), tlast on
//     the last pixel. One pixel per cycle once data flows (N444: plus one cycle per plane-0 beat).
//   * RRESP SLVERR/DECERR: the pixels of the failing beat and every later pixel are not sent, ERR_BUS_* is
//     set, no new AR is issued, outstanding beats are drained, then DONE. The truncated stream has no tlast.
//   * irq = STATUS.DONE (level). The AXI data width is 256 bits (one 32-byte word per beat).
`timescale 1ns/1ps
// Waiver, MULTITOP: rtl_stubs/ holds several reader tops (cube_reader, pixel_reader); a bare
// `verilator --lint-only -Wall rtl_stubs/*.sv` elaborates each of them as a top.
/* verilator lint_off MULTITOP */
module pixel_reader
  import accel_pkg::*;
#(
  parameter int AXI_ADDR_W      = 40,      // 12 .. 64
  parameter int AXI_ID_W        = 4,
  parameter int MAX_OUTSTANDING = 128      // bursts in flight (1 .. 255)
) (
  input  logic                        clk,
  input  logic                        rst,

  input  logic [7:0]                  s_axil_awaddr,
  input  logic [2:0]                  s_axil_awprot,
  input  logic                        s_axil_awvalid,
  output logic                        s_axil_awready,
  input  logic [31:0]                 s_axil_wdata,
  input  logic [3:0]                  s_axil_wstrb,
  input  logic                        s_axil_wvalid,
  output logic                        s_axil_wready,
  output logic [1:0]                  s_axil_bresp,
  output logic                        s_axil_bvalid,
  input  logic                        s_axil_bready,
  input  logic [7:0]                  s_axil_araddr,
  input  logic [2:0]                  s_axil_arprot,
  input  logic                        s_axil_arvalid,
  output logic                        s_axil_arready,
  output logic [31:0]                 s_axil_rdata,
  output logic [1:0]                  s_axil_rresp,
  output logic                        s_axil_rvalid,
  input  logic                        s_axil_rready,

  output logic [AXI_ID_W-1:0]         m_axi_arid,
  output logic [AXI_ADDR_W-1:0]       m_axi_araddr,
  output logic [7:0]                  m_axi_arlen,
  output logic [2:0]                  m_axi_arsize,
  output logic [1:0]                  m_axi_arburst,
  output logic                        m_axi_arlock,
  output logic [3:0]                  m_axi_arcache,
  output logic [2:0]                  m_axi_arprot,
  output logic                        m_axi_arvalid,
  input  logic                        m_axi_arready,
  input  logic [AXI_ID_W-1:0]         m_axi_rid,
  input  logic [255:0]                m_axi_rdata,
  input  logic [1:0]                  m_axi_rresp,
  input  logic                        m_axi_rlast,
  input  logic                        m_axi_rvalid,
  output logic                        m_axi_rready,

  output logic [255:0]                m_axis_tdata,
  output logic [31:0]                 m_axis_tkeep,
  output logic                        m_axis_tlast,
  output logic [31:0]                 m_axis_tuser,
  output logic                        m_axis_tvalid,
  input  logic                        m_axis_tready,

  output logic                        irq
);

  localparam int DATA_W = 256;
  localparam int LEN_W  = AXI_ADDR_W + 1;
  localparam int NR     = PR_REG_SATURATED / 4 + 1;      // registers 0x00 .. 0x60

  // ---------------------------------------------------------------- register file
  localparam logic [NR*32-1:0] WMASK =
      ((NR*32)'(PR_WMASK_FORMAT)     << (8 * PR_REG_FORMAT))
    | ((NR*32)'(PR_WMASK_WIDTH)      << (8 * PR_REG_WIDTH))
    | ((NR*32)'(PR_WMASK_HEIGHT)     << (8 * PR_REG_HEIGHT))
    | ((NR*32)'(PR_WMASK_X_OFFSET)   << (8 * PR_REG_X_OFFSET))
    | ((NR*32)'(PR_WMASK_BASE0_LO)   << (8 * PR_REG_BASE0_LO))
    | ((NR*32)'(PR_WMASK_BASE0_HI)   << (8 * PR_REG_BASE0_HI))
    | ((NR*32)'(PR_WMASK_STRIDE0)    << (8 * PR_REG_STRIDE0))
    | ((NR*32)'(PR_WMASK_BASE1_LO)   << (8 * PR_REG_BASE1_LO))
    | ((NR*32)'(PR_WMASK_BASE1_HI)   << (8 * PR_REG_BASE1_HI))
    | ((NR*32)'(PR_WMASK_STRIDE1)    << (8 * PR_REG_STRIDE1))
    | ((NR*32)'(PR_WMASK_CVT_CFG)    << (8 * PR_REG_CVT_CFG))
    | ((NR*32)'(PR_WMASK_CVT_OFFSET) << (8 * PR_REG_CVT_OFFSET))
    | ((NR*32)'(PR_WMASK_CVT_SCALE)  << (8 * PR_REG_CVT_SCALE))
    | ((NR*32)'(PR_WMASK_MEAN_0)     << (8 * PR_REG_MEAN_0))
    | ((NR*32)'(PR_WMASK_MEAN_1)     << (8 * PR_REG_MEAN_1));

  logic [NR*32-1:0] regs_q, rd_val;
  logic [NR-1:0]    wr_pulse;
  logic [31:0]      wr_data;
  logic [3:0]       wr_strb;

  axil_regs #(
    .N_REGS (NR),
    .ADDR_W (8),
    .WMASK  (WMASK),
    .RESET_VAL ('0),
    .MAPPED ('1)
  ) u_regs (
    .clk, .rst,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready,
    .s_axil_wdata, .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready,
    .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arprot, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
    .regs_q, .rd_val, .wr_pulse, .wr_data, .wr_strb
  );

  // the descriptor as programmed (one concatenation in pix_desc_t field order: Icarus 11 cannot assign
  // struct members in always_*)
  logic [31:0] r_cfg;
  pix_desc_t   reg_desc;
  assign r_cfg = regs_q[8*PR_REG_CVT_CFG +: 32];
  assign reg_desc = {regs_q[8*PR_REG_FORMAT + PR_FORMAT_CODE_LSB +: PR_FORMAT_CODE_W],     // format
                     regs_q[8*PR_REG_WIDTH    +: 32],                                      // width
                     regs_q[8*PR_REG_HEIGHT   +: 32],                                      // height
                     regs_q[8*PR_REG_X_OFFSET +: 32],                                      // x_offset
                     regs_q[8*PR_REG_BASE0_HI +: 32], regs_q[8*PR_REG_BASE0_LO +: 32],     // base0
                     regs_q[8*PR_REG_STRIDE0  +: 32],                                      // stride0
                     regs_q[8*PR_REG_BASE1_HI +: 32], regs_q[8*PR_REG_BASE1_LO +: 32],     // base1
                     regs_q[8*PR_REG_STRIDE1  +: 32],                                      // stride1
                     r_cfg[PR_CVT_CFG_PRECISION_LSB +: PR_CVT_CFG_PRECISION_W],            // precision
                     r_cfg[PR_CVT_CFG_CVT_EN_BIT],                                         // cvt_en
                     r_cfg[PR_CVT_CFG_SIGN_BIT],                                           // sign
                     r_cfg[PR_CVT_CFG_MEAN_EN_BIT],                                        // mean_en
                     r_cfg[PR_CVT_CFG_TRUNCATE_LSB +: PR_CVT_CFG_TRUNCATE_W],              // truncate
                     regs_q[8*PR_REG_CVT_OFFSET +: 16],                                    // cvt_offset
                     regs_q[8*PR_REG_CVT_SCALE  +: 16],                                    // cvt_scale
                     regs_q[8*PR_REG_MEAN_1 +: 32], regs_q[8*PR_REG_MEAN_0 +: 32]};        // mean

  // ---------------------------------------------------------------- job control
  pix_desc_t           job;
  logic [PR_FMT_W-1:0] fmt;
  logic                start_req, starting, busy, init, run, stopped, done_q;
  logic                bus_err, bus_decerr, issue_done, eng_busy, out_empty;
  logic [31:0]         err_q;

  assign start_req = wr_pulse[REG_CTRL / 4] && wr_strb[CTRL_START_BIT / 8] && wr_data[CTRL_START_BIT];
  assign irq       = done_q;

  pr_job_ctrl #(.AXI_ADDR_W(AXI_ADDR_W)) u_ctrl (
    .clk, .rst, .start_req, .reg_desc, .job, .fmt, .init, .run, .busy, .starting, .stopped,
    .beat_err (bus_err), .beat_decerr (bus_decerr), .issue_done, .eng_busy, .out_empty, .err_q, .done_q
  );

  // ---------------------------------------------------------------- line geometry (x offset in pixels)
  logic [1:0]       bpp0_l, bpp1_l;
  logic [4:0]       off0, off1;
  logic [LEN_W-1:0] len0, len1;
  assign bpp0_l = fmt[PR_FMT_BPP0_LSB +: 2];
  assign bpp1_l = {1'b0, fmt[PR_FMT_BPP1_BIT]} + 2'd1;
  assign off0   = 5'(job.x_offset[4:0] << bpp0_l);
  assign off1   = 5'(job.x_offset[4:0] << bpp1_l);
  assign len0   = LEN_W'(job.width[13:0]) << bpp0_l;
  assign len1   = LEN_W'(job.width[13:0]) << bpp1_l;

  // ---------------------------------------------------------------- lines -> read engine
  logic                  cmd_valid, cmd_ready;
  logic [AXI_ADDR_W-1:0] cmd_addr;
  logic [LEN_W-1:0]      cmd_len;

  pr_line_walker #(.AXI_ADDR_W(AXI_ADDR_W), .LEN_W(LEN_W)) u_walk (
    .clk, .rst, .init, .run, .stopped,
    .two     (fmt[PR_FMT_TWO_BIT]),
    .base0   (job.base0[AXI_ADDR_W-1:0]),
    .base1   (job.base1[AXI_ADDR_W-1:0]),
    .stride0 (job.stride0),
    .stride1 (job.stride1),
    .off0, .off1, .len0, .len1,
    .height  (job.height[13:0]),
    .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .issue_done
  );

  logic              rd_valid, rd_ready, rd_first, rd_last, r_beat;
  logic [DATA_W-1:0] rd_data;
  logic [1:0]        rd_resp;
  logic [AXI_ADDR_W-1:0] rd_addr;
  logic [4:0]        rd_lo, rd_hi;

  axi_rd_engine #(
    .ADDR_W          (AXI_ADDR_W),
    .DATA_W          (DATA_W),
    .ID_W            (AXI_ID_W),
    .MAX_OUTSTANDING (MAX_OUTSTANDING),
    .MAX_BURST       (256),
    .LEN_W           (LEN_W)
  ) u_eng (
    .clk, .rst,
    .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len,
    .stop     (stopped),
    .busy     (eng_busy),
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock,
    .m_axi_arcache, .m_axi_arprot, .m_axi_arvalid, .m_axi_arready,
    .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi,
    .r_beat
  );

  // beats come back in command order: the unpacker needs the lanes and the end of each command only
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{rd_addr, rd_first, q_user[63:32], job.base0[63:AXI_ADDR_W], job.base1[63:AXI_ADDR_W]};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- beats -> pixels -> atoms -> m_axis
  logic        px_valid, px_last, px_eol, space, pop;
  logic [63:0] px_val;
  logic [15:0] px_h, px_w;
  logic [255:0] atom;
  logic [7:0]  px_sat, pop_sat, pop_eol;
  logic [1:0]  q_cnt;
  logic [63:0] q_user;

  pr_unpacker #(.DATA_W(DATA_W)) u_unpack (
    .clk, .rst, .init, .run, .stopped, .fmt, .off0,
    .width  (job.width[13:0]),
    .height (job.height[13:0]),
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_lo, .rd_hi, .rd_last,
    .space, .px_valid, .px_val, .px_h, .px_w, .px_last, .px_eol,
    .bus_err, .bus_decerr
  );

  pr_atom u_atom (.px_val, .fmt, .job, .atom, .sat (px_sat));

  assign space     = (q_cnt != 2'd2);
  assign out_empty = (q_cnt == 2'd0);

  atom_fifo #(.AB(32)) u_fifo (
    .clk, .rst,
    .push      (px_valid),
    .push_data (atom),
    .push_user ({32'd0, px_h, px_w}),
    .push_last (px_last),
    .push_nan  (px_sat),
    .push_inf  ({7'd0, px_eol}),
    .m_axis_tdata, .m_axis_tlast,
    .m_axis_tuser (q_user),
    .m_axis_tvalid, .m_axis_tready,
    .pop, .pop_nan (pop_sat), .pop_inf (pop_eol),
    .count (q_cnt)
  );

  assign m_axis_tuser = q_user[31:0];
  assign m_axis_tkeep = '1;

  // ---------------------------------------------------------------- status and counters
  logic [31:0] pixels, saturated, lines, cycles, beats;

  job_counters u_cnt (
    .clk, .rst, .clear (starting), .busy, .r_beat, .pop, .pop_nan (pop_sat), .pop_inf (pop_eol),
    .atoms_sent (pixels), .nan_total (saturated), .inf_total (lines), .cycles, .beats
  );

  always_comb begin
    rd_val = regs_q;    // RW registers read back; RO and WO registers hold 0 in regs_q (WMASK 0)
    rd_val[8*REG_ID            +: 32] = PR_ID;
    rd_val[8*REG_PARAMS        +: 32] = {8'(AXI_ADDR_W), 8'(MAX_OUTSTANDING), 16'(DATA_W)};
    rd_val[8*REG_STATUS        +: 32] = '0;
    rd_val[8*REG_STATUS + STATUS_BUSY_BIT]  = busy;
    rd_val[8*REG_STATUS + STATUS_DONE_BIT]  = done_q;
    rd_val[8*REG_STATUS + STATUS_ERROR_BIT] = (err_q != 32'd0);
    rd_val[8*REG_ERROR         +: 32] = err_q;
    rd_val[8*PR_REG_PIXELS     +: 32] = pixels;
    rd_val[8*PR_REG_LINES      +: 32] = lines;
    rd_val[8*PR_REG_BEATS      +: 32] = beats;
    rd_val[8*PR_REG_CYCLES     +: 32] = cycles;
    rd_val[8*PR_REG_SATURATED  +: 32] = saturated;
  end

endmodule
/* verilator lint_on MULTITOP */
