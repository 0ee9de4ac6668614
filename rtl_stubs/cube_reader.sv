// cube_reader: reads a blocked activation cube (models/blocked.py BlockedCubeDescriptor) over AXI4 and
// streams its atoms in canonical order n -> channel group -> h -> w (w fastest).
//
// Register map (AXI4-Lite, 32-bit registers; the source of every offset, field, write mask and error bit
// is accel_pkg.sv: common REG_* and CR_*; tests/sim/test_regmap.py checks this table against it):
//   0x00 ID          RO  accel_pkg::CR_ID
//   0x04 PARAMS      RO  [15:0] AXI_DATA_W, [23:16] MAX_OUTSTANDING, [31:24] AXI_ADDR_W
//   0x08 CTRL        WO  [0] START (ignored while busy); reads 0
//   0x0C CFG         RW  [3:0] LAYOUT, [8] FP16, [9] NAN_TO_ZERO (other bits read 0: CR_WMASK_CFG)
//   0x10 STATUS      RO  [0] BUSY, [1] DONE (cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR       RO  [9:0] validator rules CR_ERR_LAYOUT..CR_ERR_ADDR_OVERFLOW, [16] CR_ERR_BUS_SLVERR,
//                        [17] CR_ERR_BUS_DECERR (cleared by START)
//   0x18 BASE_LO     RW  base address [31:0]
//   0x1C BASE_HI     RW  base address [63:32] (the validator checks the base against 2**AXI_ADDR_W)
//   0x20 ATOM_BYTES  RW  8, 16, 32, 64 or 128
//   0x24 ELEM_BYTES  RW  1, 2 or 4
//   0x28 COUNT_W     RW  atoms per line
//   0x2C COUNT_H     RW  lines
//   0x30 COUNT_C     RW  channel groups (surfaces)
//   0x34 COUNT_N     RW  batches (counts are full 32-bit registers; the validator refuses 0 and > 65535)
//   0x38 STRIDE_H    RW  line stride, bytes
//   0x3C STRIDE_C    RW  surface stride, bytes
//   0x40 STRIDE_N    RW  batch stride, bytes
//   0x44 ATOMS_SENT  RO  atoms handed over on m_axis (tvalid && tready) by the last job
//   0x48 NAN_COUNT   RO  fp16 NaN elements of the atoms sent
//   0x4C INF_COUNT   RO  fp16 infinity elements of the atoms sent
//   0x50 CYCLES      RO  clock cycles with STATUS.BUSY set (from the cycle after the START write to DONE)
//   0x54 BEATS       RO  AXI R beats accepted by the last job (drained beats after an error included)
//   Unmapped offsets (0x58..0xFC) answer SLVERR; writes to RO registers answer OKAY and are ignored.
//
// Structure (one module per file):
//   axil_regs          AXI4-Lite register file (write masks CR_WMASK_* of accel_pkg)
//   cr_job_ctrl        START, descriptor latch (cube_desc_t), cr_desc_validator hand-off, job state, ERROR, DONE
//   cr_run_walker      descriptor -> contiguous runs -> axi_rd_engine commands
//   axi_rd_engine      AXI4 read master: INCR bursts, 4 KB split, MAX_OUTSTANDING bursts in flight
//   cr_atom_assembler  beats -> atoms, fp16 scan (cr_fp16_scan), {n,c,h,w}, output queue (atom_fifo)
//   job_counters        ATOMS_SENT, NAN_COUNT, INF_COUNT, CYCLES, BEATS
//
// Behaviour:
//   * START latches the descriptor registers and runs cr_desc_validator. An illegal descriptor sets its
//     ERROR bits and DONE without any AXI traffic.
//   * Contiguous runs: a line (COUNT_W atoms) is one run; lines merge into surfaces when STRIDE_H ==
//     COUNT_W*ATOM (or COUNT_H == 1), surfaces into batches when STRIDE_C == COUNT_H*COUNT_W*ATOM
//     (or COUNT_C == 1) and batches into one run when STRIDE_N == the batch size (or COUNT_N == 1).
//     Each run is one axi_rd_engine command (INCR bursts, full width, <= 256 beats, split at 4 KB, up
//     to MAX_OUTSTANDING bursts in flight).
//   * Atoms smaller than a beat share beats (base and strides are atom multiples, so an atom never
//     straddles a beat); larger atoms are assembled from ATOM/BW beats. One atom per m_axis transfer,
//     in the low bytes of tdata (bytes above the atom are 0), tkeep = low ATOM bits,
//     tuser = {n, c, h, w} (16 bits each), tlast on the last atom of the job.
//   * Back-pressure: a 2-entry output FIFO; when it is full RREADY falls (no AR is ever issued that the
//     design could not absorb). Sustains one beat per cycle when m_axis_tready stays high.
//   * RRESP SLVERR/DECERR: the atom of the failing beat and every later atom are not sent (atoms
//     completed before it still leave the output FIFO), ERR_BUS_* is set, no new AR is issued, the
//     outstanding beats are drained, then DONE. The truncated stream has no tlast.
//   * fp16 (CFG.FP16): NaN (exponent 31, mantissa != 0) and infinity elements of every atom sent are
//     counted; with CFG.NAN_TO_ZERO the NaN elements leave as 16'h0000.
//   * irq = STATUS.DONE (level).
`timescale 1ns/1ps
module cube_reader
  import accel_pkg::*;
#(
  parameter int AXI_DATA_W      = 256,     // 64 .. 8*MAX_ATOM_BYTES, power of two (256 and 512 tested)
  parameter int AXI_ADDR_W      = 40,      // 12 .. 64
  parameter int AXI_ID_W        = 4,
  parameter int MAX_OUTSTANDING = 128,     // bursts in flight (1 .. 255): enough to hide ~128 cycles of latency on one-beat runs
  parameter int MAX_ATOM_BYTES  = 128
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
  input  logic [AXI_DATA_W-1:0]       m_axi_rdata,
  input  logic [1:0]                  m_axi_rresp,
  input  logic                        m_axi_rlast,
  input  logic                        m_axi_rvalid,
  output logic                        m_axi_rready,

  output logic [MAX_ATOM_BYTES*8-1:0] m_axis_tdata,
  output logic [MAX_ATOM_BYTES-1:0]   m_axis_tkeep,
  output logic                        m_axis_tlast,
  output logic [63:0]                 m_axis_tuser,
  output logic                        m_axis_tvalid,
  input  logic                        m_axis_tready,

  output logic                        irq
);

  localparam int LEN_W  = AXI_ADDR_W + 1;
  localparam int NR     = CR_REG_BEATS / 4 + 1;      // registers 0x00 .. 0x54

  // ---------------------------------------------------------------- register file
  // write masks from accel_pkg: only the RW registers have one
  localparam logic [NR*32-1:0] WMASK =
      ((NR*32)'(CR_WMASK_CFG)        << (8 * CR_REG_CFG))
    | ((NR*32)'(CR_WMASK_BASE_LO)    << (8 * CR_REG_BASE_LO))
    | ((NR*32)'(CR_WMASK_BASE_HI)    << (8 * CR_REG_BASE_HI))
    | ((NR*32)'(CR_WMASK_ATOM_BYTES) << (8 * CR_REG_ATOM_BYTES))
    | ((NR*32)'(CR_WMASK_ELEM_BYTES) << (8 * CR_REG_ELEM_BYTES))
    | ((NR*32)'(CR_WMASK_COUNT_W)    << (8 * CR_REG_COUNT_W))
    | ((NR*32)'(CR_WMASK_COUNT_H)    << (8 * CR_REG_COUNT_H))
    | ((NR*32)'(CR_WMASK_COUNT_C)    << (8 * CR_REG_COUNT_C))
    | ((NR*32)'(CR_WMASK_COUNT_N)    << (8 * CR_REG_COUNT_N))
    | ((NR*32)'(CR_WMASK_STRIDE_H)   << (8 * CR_REG_STRIDE_H))
    | ((NR*32)'(CR_WMASK_STRIDE_C)   << (8 * CR_REG_STRIDE_C))
    | ((NR*32)'(CR_WMASK_STRIDE_N)   << (8 * CR_REG_STRIDE_N));

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

  // the descriptor as programmed
  logic [31:0] r_cfg;
  cube_desc_t  reg_desc;
  assign r_cfg = regs_q[8*CR_REG_CFG +: 32];
  // (one concatenation in cube_desc_t field order: Icarus 11 cannot assign struct members in always_*)
  assign reg_desc = {r_cfg[CR_CFG_LAYOUT_LSB +: CR_CFG_LAYOUT_W],                // layout
                     r_cfg[CR_CFG_FP16_BIT],                                     // fp16
                     r_cfg[CR_CFG_NAN_TO_ZERO_BIT],                              // nan_to_zero
                     regs_q[8*CR_REG_BASE_HI +: 32], regs_q[8*CR_REG_BASE_LO +: 32], // base
                     regs_q[8*CR_REG_ATOM_BYTES +: 32],                          // atom_bytes
                     regs_q[8*CR_REG_ELEM_BYTES +: 32],                          // elem_bytes
                     regs_q[8*CR_REG_COUNT_W    +: 32],                          // count_w
                     regs_q[8*CR_REG_COUNT_H    +: 32],                          // count_h
                     regs_q[8*CR_REG_COUNT_C    +: 32],                          // count_c
                     regs_q[8*CR_REG_COUNT_N    +: 32],                          // count_n
                     regs_q[8*CR_REG_STRIDE_H   +: 32],                          // stride_h
                     regs_q[8*CR_REG_STRIDE_C   +: 32],                          // stride_c
                     regs_q[8*CR_REG_STRIDE_N   +: 32]};                         // stride_n

  // ---------------------------------------------------------------- job control
  cube_desc_t  job;
  logic        start_req, starting, busy, setup_surface, setup_batch, setup_cube, run, stopped, done_q;
  logic        bus_err, bus_decerr, issue_done, eng_busy, out_empty;
  logic [31:0] err_q;

  assign start_req = wr_pulse[REG_CTRL / 4] && wr_strb[CTRL_START_BIT / 8] && wr_data[CTRL_START_BIT];
  assign irq       = done_q;

  cr_job_ctrl #(.AXI_ADDR_W(AXI_ADDR_W)) u_ctrl (
    .clk, .rst, .start_req, .reg_desc, .job, .setup_surface, .setup_batch, .setup_cube, .run, .busy, .starting,
    .stopped,
    .beat_err (bus_err), .beat_decerr (bus_decerr), .issue_done, .eng_busy, .out_empty, .err_q, .done_q
  );

  // ---------------------------------------------------------------- address walk -> read engine
  logic                  cmd_valid, cmd_ready;
  logic [AXI_ADDR_W-1:0] cmd_addr;
  logic [LEN_W-1:0]      cmd_len;

  cr_run_walker #(.AXI_ADDR_W(AXI_ADDR_W), .LEN_W(LEN_W)) u_walk (
    .clk, .rst, .job, .setup_surface, .setup_batch, .setup_cube, .run, .stopped,
    .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .issue_done
  );

  logic                  rd_valid, rd_ready, rd_first, rd_last, r_beat;
  logic [AXI_DATA_W-1:0] rd_data;
  logic [1:0]            rd_resp;
  logic [AXI_ADDR_W-1:0] rd_addr;
  logic [$clog2(AXI_DATA_W/8)-1:0] rd_lo, rd_hi;

  axi_rd_engine #(
    .ADDR_W          (AXI_ADDR_W),
    .DATA_W          (AXI_DATA_W),
    .ID_W            (AXI_ID_W),
    .MAX_OUTSTANDING (MAX_OUTSTANDING),
    .MAX_BURST       (256),
    .LEN_W           (LEN_W)
  ) u_eng (
    .clk, .rst,
    .cmd_valid, .cmd_ready,
    .cmd_addr,
    .cmd_len,
    .stop     (stopped),
    .busy     (eng_busy),
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock,
    .m_axi_arcache, .m_axi_arprot, .m_axi_arvalid, .m_axi_arready,
    .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi,
    .r_beat
  );

  // The atom walk needs only the byte lanes of each beat: beats come back in command order and the
  // coordinates are counted on the output side, so the beat address and command flags stay unused.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{rd_addr, rd_first, rd_last};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- beats -> atoms -> m_axis
  logic       pop;
  logic [7:0] pop_nan, pop_inf;

  cr_atom_assembler #(.AXI_DATA_W(AXI_DATA_W), .MAX_ATOM_BYTES(MAX_ATOM_BYTES)) u_asm (
    .clk, .rst, .job, .load_geometry (setup_surface), .reset_coords (setup_cube), .run, .stopped,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_lo, .rd_hi, .bus_err, .bus_decerr,
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready,
    .pop, .pop_nan, .pop_inf, .out_empty
  );

  // ---------------------------------------------------------------- status and counters
  logic [31:0] atoms_sent, nan_total, inf_total, cycles, beats;

  job_counters u_cnt (
    .clk, .rst, .clear (starting), .busy, .r_beat, .pop, .pop_nan, .pop_inf,
    .atoms_sent, .nan_total, .inf_total, .cycles, .beats
  );

  always_comb begin
    rd_val = regs_q;    // RW registers read back; RO and WO registers hold 0 in regs_q (WMASK 0)
    rd_val[8*REG_ID            +: 32] = CR_ID;
    rd_val[8*REG_PARAMS        +: 32] = {8'(AXI_ADDR_W), 8'(MAX_OUTSTANDING), 16'(AXI_DATA_W)};
    rd_val[8*REG_STATUS        +: 32] = '0;
    rd_val[8*REG_STATUS + STATUS_BUSY_BIT]  = busy;
    rd_val[8*REG_STATUS + STATUS_DONE_BIT]  = done_q;
    rd_val[8*REG_STATUS + STATUS_ERROR_BIT] = (err_q != 32'd0);
    rd_val[8*REG_ERROR         +: 32] = err_q;
    rd_val[8*CR_REG_ATOMS_SENT +: 32] = atoms_sent;
    rd_val[8*CR_REG_NAN_COUNT  +: 32] = nan_total;
    rd_val[8*CR_REG_INF_COUNT  +: 32] = inf_total;
    rd_val[8*CR_REG_CYCLES     +: 32] = cycles;
    rd_val[8*CR_REG_BEATS      +: 32] = beats;
  end

endmodule
