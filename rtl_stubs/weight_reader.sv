// weight_reader: reads NVDLA convolution weights, dense or sparse-compressed (WGS, WMB and compressed weight
// surfaces: seed "Sparse Compression option", Table 35; clarifications section 7), over AXI4 and streams the
// dense mapped weight bytes, kernel group by kernel group, on AXI4-Stream.
//
// Register map (AXI4-Lite, 32-bit registers; every offset, field, write mask and error bit is defined in
// accel_pkg.sv: common REG_* and WR_*; tests/sim/test_regmap.py checks this table against it):
//   0x00 ID               RO  accel_pkg::WR_ID
//   0x04 PARAMS           RO  [15:0] AXI_DATA_W, [23:16] MAX_OUTSTANDING, [31:24] AXI_ADDR_W
//   0x08 CTRL             WO  [0] START (ignored while busy); reads 0
//   0x0C CFG              RW  [0] COMPRESSED (weight format: 0 dense, 1 sparse-compressed)
//   0x10 STATUS           RO  [0] BUSY, [1] DONE (cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR            RO  [10:0] validator rules WR_ERR_ELEM_SIZE..WR_ERR_ADDR_OVERFLOW (the order of
//                             models/weight_desc.py ERROR_RULES), [11] WGS_MISMATCH, [12] WEIGHT_OVERRUN,
//                             [16] BUS_SLVERR, [17] BUS_DECERR (cleared by START)
//   0x18 ELEM_BYTES       RW  1 (int8) or 2 (int16, fp16)
//   0x1C GROUPS           RW  kernel groups, 1..65535
//   0x20 GROUP_BYTES      RW  dense bytes of every kernel group but the last
//   0x24 LAST_GROUP_BYTES RW  dense bytes of the last kernel group
//   0x28 TOTAL_BYTES      RO  dense bytes of the job started last: (GROUPS-1)*GROUP_BYTES + LAST_GROUP_BYTES
//   0x2C WEIGHT_BASE_LO   RW  weight surface (compressed or dense) address [31:0]
//   0x30 WEIGHT_BASE_HI   RW  weight surface address [63:32]
//   0x34 WEIGHT_BYTES     RW  weight surface bytes (compressed: the padded compressed size)
//   0x38 WMB_BASE_LO      RW  WMB surface address [31:0] (compressed only)
//   0x3C WMB_BASE_HI      RW  WMB surface address [63:32]
//   0x40 WMB_BYTES        RW  WMB surface bytes
//   0x44 WGS_BASE_LO      RW  WGS surface address [31:0] (compressed only)
//   0x48 WGS_BASE_HI      RW  WGS surface address [63:32]
//   0x4C WGS_BYTES        RW  WGS surface bytes
//   0x50 GROUPS_DONE      RO  kernel groups delivered (transfers with tlast) by the last job
//   0x54 DENSE_OUT        RO  dense bytes delivered (kept bytes of every transfer)
//   0x58 COMP_BYTES       RO  weight-surface bytes expanded (compressed: the sum of the WGS of the groups)
//   0x5C ZEROS            RO  zero elements restored (mask bits 0)
//   0x60 CYCLES           RO  clock cycles with STATUS.BUSY set
//   0x64 BEATS            RO  AXI R beats accepted by the last job (drained beats after an error included)
//   0x68 OUT_BEATS        RO  transfers on m_axis
//   0x6C FAULT            RO  [1:0] surface of the first bus error: 0 none, 1 weight, 2 WMB, 3 WGS
//   Unmapped offsets (0x70..0xFC) answer SLVERR; writes to RO registers answer OKAY and are ignored.
//
// Structure (one module per file):
//   axil_regs      AXI4-Lite register file (write masks WR_WMASK_* of accel_pkg)
//   wr_job_ctrl    START, descriptor latch, wr_validator (one error bit per rule), job state, ERROR, DONE
//   wr_fetch       WGS / WMB / weight-data pieces interleaved on axi_rd_engine, bounded beat queues
//                  (wr_fifo), a tag queue routing the returning beats
//   wr_wgs_unpack  WGS beats -> one entry per group, the running sum (the weight-data read limit)
//   wr_expander    mask and data windows, one dense beat per cycle, group framing, run-time checks
//   wr_fifo        output queue (2 transfers) and every other queue
//   wr_counters    GROUPS_DONE, DENSE_OUT, COMP_BYTES, ZEROS, CYCLES, BEATS, OUT_BEATS
//
// Buffering (issue 23: hide a read latency of 128 cycles): one beat queue per surface with its own credit (a
// read is issued only when its beats fit, in flight included), no shared pool: the expander needs mask bits and
// data bytes together in a ratio the weights set, so a pool one surface could fill would starve the other.
// Each queue holds its peak rate over a round trip: DATA_DEPTH 160 (up to one beat per cycle), WMB_DEPTH 32
// (at most 1/8 beat per cycle), WGS_DEPTH 32 (1/8 beat per cycle at one group per cycle) and ENT_DEPTH 512: the
// weight-data read limit runs ENT_DEPTH groups ahead of the expander and waits for a whole 4-beat chunk, so it
// must cover a chunk plus a round trip of data even for groups of one transfer and a few compressed bytes (at
// 32, groups of 128 dense bytes or fewer streamed at 0.14..0.48 transfers per cycle at latency 128). Reads in
// flight are shared: one engine, one ID, a tag queue; the credits (at most 224 beats) bind before
// MAX_OUTSTANDING = 64 bursts of up to 4 beats. Every queue deeper than 2 and the engine's burst table are sdp_ram
// memories (docs/weight_reader.md).
//
// Output: m_axis_tdata carries OUT_DATA_W/8 (default AXI_DATA_W/8) dense bytes per transfer in the order of the model's
// uncompressed pack (the mapped weight stream of any weight format), tkeep = low bytes (partial on the last
// transfer of a group), tlast on the last transfer of every kernel group, tuser = the group index. Each
// group starts a new transfer. Dense (CFG.COMPRESSED = 0) is the same data path with the mask taken as all
// ones; it reads the weight surface only.
// Errors: an illegal descriptor sets its validator bits and DONE without any AXI read. Run-time errors stop
// the job (no new read, outstanding beats drained, nothing more sent; transfers already queued leave):
// WGS_MISMATCH when a group's WGS entry differs from popcount(its WMB bits) x ELEM_BYTES (the group's last
// transfer, or the one that takes more than WGS bytes, is not sent: that group has no tlast), WEIGHT_OVERRUN
// when the WGS sum up to a group passes WEIGHT_BYTES (that group is not started), SLVERR/DECERR on a beat
// of any surface (FAULT names it). irq = STATUS.DONE (level).
`timescale 1ns/1ps
// Waiver, MULTITOP: rtl_stubs/ holds several reader tops (cube_reader, weight_reader); a bare
// `verilator --lint-only -Wall rtl_stubs/*.sv` sees them all as tops, which is intended.
/* verilator lint_off MULTITOP */
module weight_reader
  import accel_pkg::*;
#(
  parameter int AXI_DATA_W      = 256,     // 64 .. 1024, power of two (256 and 512 tested)
  parameter int AXI_ADDR_W      = 40,      // 12 .. 64
  parameter int AXI_ID_W        = 4,
  parameter int MAX_OUTSTANDING = 64,      // bursts in flight of the read engine (1 .. 255), shared by the surfaces
  parameter int DATA_DEPTH      = 160,     // weight-data beat queue (beats queued + in flight)
  parameter int WMB_DEPTH       = 32,      // WMB beat queue (beats queued + in flight)
  parameter int WGS_DEPTH       = 32,      // WGS beat queue (beats queued + in flight)
  parameter int ENT_DEPTH       = 512,     // WGS entries unpacked ahead of the expander (the weight read limit)
  parameter int OUT_DATA_W      = AXI_DATA_W   // m_axis data width, 64 .. AXI_DATA_W (a narrower output than the
                                               // bus leaves room for the WMB reads: docs/weight_reader.md, Throughput)
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

  output logic [OUT_DATA_W-1:0]       m_axis_tdata,
  output logic [OUT_DATA_W/8-1:0]     m_axis_tkeep,
  output logic                        m_axis_tlast,
  output logic [15:0]                 m_axis_tuser,
  output logic                        m_axis_tvalid,
  input  logic                        m_axis_tready,

  output logic                        irq
);

  localparam int BW    = AXI_DATA_W / 8;
  localparam int LB    = $clog2(BW);
  localparam int QW    = AXI_DATA_W + 2 * LB;
  localparam int LEN_W = AXI_ADDR_W + 1;
  localparam int NR    = WR_REG_FAULT / 4 + 1;      // registers 0x00 .. 0x6C

  // ---------------------------------------------------------------- register file
  localparam logic [NR*32-1:0] WMASK =
      ((NR*32)'(WR_WMASK_CFG)              << (8 * WR_REG_CFG))
    | ((NR*32)'(WR_WMASK_ELEM_BYTES)       << (8 * WR_REG_ELEM_BYTES))
    | ((NR*32)'(WR_WMASK_GROUPS)           << (8 * WR_REG_GROUPS))
    | ((NR*32)'(WR_WMASK_GROUP_BYTES)      << (8 * WR_REG_GROUP_BYTES))
    | ((NR*32)'(WR_WMASK_LAST_GROUP_BYTES) << (8 * WR_REG_LAST_GROUP_BYTES))
    | ((NR*32)'(WR_WMASK_WEIGHT_BASE_LO)   << (8 * WR_REG_WEIGHT_BASE_LO))
    | ((NR*32)'(WR_WMASK_WEIGHT_BASE_HI)   << (8 * WR_REG_WEIGHT_BASE_HI))
    | ((NR*32)'(WR_WMASK_WEIGHT_BYTES)     << (8 * WR_REG_WEIGHT_BYTES))
    | ((NR*32)'(WR_WMASK_WMB_BASE_LO)      << (8 * WR_REG_WMB_BASE_LO))
    | ((NR*32)'(WR_WMASK_WMB_BASE_HI)      << (8 * WR_REG_WMB_BASE_HI))
    | ((NR*32)'(WR_WMASK_WMB_BYTES)        << (8 * WR_REG_WMB_BYTES))
    | ((NR*32)'(WR_WMASK_WGS_BASE_LO)      << (8 * WR_REG_WGS_BASE_LO))
    | ((NR*32)'(WR_WMASK_WGS_BASE_HI)      << (8 * WR_REG_WGS_BASE_HI))
    | ((NR*32)'(WR_WMASK_WGS_BYTES)        << (8 * WR_REG_WGS_BYTES));

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

  // the descriptor registers as programmed (plain part-selects: Icarus 11 mis-evaluates function calls in ports)
  logic        r_compressed;
  logic [31:0] r_elem, r_groups, r_gbytes, r_lbytes, r_wbytes, r_mbytes, r_sbytes;
  logic [63:0] r_wbase, r_mbase, r_gbase;
  assign r_compressed = regs_q[8*WR_REG_CFG + WR_CFG_COMPRESSED_BIT];
  assign r_elem       = regs_q[8*WR_REG_ELEM_BYTES +: 32];
  assign r_groups     = regs_q[8*WR_REG_GROUPS +: 32];
  assign r_gbytes     = regs_q[8*WR_REG_GROUP_BYTES +: 32];
  assign r_lbytes     = regs_q[8*WR_REG_LAST_GROUP_BYTES +: 32];
  assign r_wbase      = {regs_q[8*WR_REG_WEIGHT_BASE_HI +: 32], regs_q[8*WR_REG_WEIGHT_BASE_LO +: 32]};
  assign r_wbytes     = regs_q[8*WR_REG_WEIGHT_BYTES +: 32];
  assign r_mbase      = {regs_q[8*WR_REG_WMB_BASE_HI +: 32], regs_q[8*WR_REG_WMB_BASE_LO +: 32]};
  assign r_mbytes     = regs_q[8*WR_REG_WMB_BYTES +: 32];
  assign r_gbase      = {regs_q[8*WR_REG_WGS_BASE_HI +: 32], regs_q[8*WR_REG_WGS_BASE_LO +: 32]};
  assign r_sbytes     = regs_q[8*WR_REG_WGS_BYTES +: 32];

  // ---------------------------------------------------------------- job control
  logic        start_req, starting, busy, init, run, stopped, done_q, all_done, eng_busy, out_empty;
  logic        bus_err, bus_decerr, err_mismatch, err_overrun;
  logic [1:0]  bus_surface;
  logic [31:0] err_q, fault_q;
  logic        j_compressed;
  logic [31:0] j_elem, j_groups, j_gbytes, j_lbytes, j_wbytes;
  logic [63:0] j_wbase, j_mbase, j_gbase, j_dense;

  assign start_req = wr_pulse[REG_CTRL / 4] && wr_strb[CTRL_START_BIT / 8] && wr_data[CTRL_START_BIT];
  assign irq       = done_q;

  wr_job_ctrl #(.AXI_ADDR_W(AXI_ADDR_W)) u_ctrl (
    .clk, .rst, .start_req,
    .r_compressed, .r_elem, .r_groups, .r_gbytes, .r_lbytes, .r_wbase, .r_wbytes, .r_mbase, .r_mbytes,
    .r_gbase, .r_sbytes,
    .j_compressed, .j_elem, .j_groups, .j_gbytes, .j_lbytes, .j_wbase, .j_wbytes, .j_mbase, .j_gbase,
    .j_dense, .init, .run, .busy, .starting, .stopped,
    .bus_err, .bus_decerr, .bus_surface, .err_mismatch, .err_overrun,
    .all_done, .eng_busy, .out_empty, .err_q, .fault_q, .done_q
  );

  // ---------------------------------------------------------------- job geometry in elements
  logic        job_e2;
  logic [32:0] dense_elems, data_limit;
  logic [31:0] group_elems, last_elems;
  logic [47:0] wgs_sum;
  logic        wgs_all_in;

  assign job_e2      = (j_elem == 32'd2);
  assign dense_elems = job_e2 ? j_dense[33:1] : j_dense[32:0];
  assign group_elems = job_e2 ? {1'b0, j_gbytes[31:1]} : j_gbytes;
  assign last_elems  = job_e2 ? {1'b0, j_lbytes[31:1]} : j_lbytes;
  assign data_limit  = !j_compressed ? j_dense[32:0]
                     : (wgs_sum > 48'(j_wbytes)) ? {1'b0, j_wbytes} : wgs_sum[32:0];

  // ---------------------------------------------------------------- reads: WGS, WMB, weight data
  logic                  cmd_valid, cmd_ready, rd_valid, rd_ready, rd_first, rd_last, r_beat;
  logic [AXI_ADDR_W-1:0] cmd_addr, rd_addr;
  logic [LEN_W-1:0]      cmd_len;
  logic [AXI_DATA_W-1:0] rd_data;
  logic [1:0]            rd_resp;
  logic [LB-1:0]         rd_lo, rd_hi;
  logic                  wgs_valid, wgs_pop, wmb_valid, wmb_pop, dat_valid, dat_pop;
  logic [QW-1:0]         wgs_beat, wmb_beat, dat_beat;

  wr_fetch #(.AXI_ADDR_W(AXI_ADDR_W), .AXI_DATA_W(AXI_DATA_W), .LEN_W(LEN_W), .DATA_DEPTH(DATA_DEPTH),
             .WMB_DEPTH(WMB_DEPTH), .WGS_DEPTH(WGS_DEPTH), .TAG_DEPTH(MAX_OUTSTANDING + 1)) u_fetch (
    .clk, .rst, .init, .run, .compressed (j_compressed),
    .weight_base (AXI_ADDR_W'(j_wbase)), .wmb_base (AXI_ADDR_W'(j_mbase)), .wgs_base (AXI_ADDR_W'(j_gbase)),
    .wmb_len ((dense_elems + 33'd7) >> 3), .wgs_len ({j_groups[30:0], 2'b00}),
    .data_limit, .data_final (!j_compressed || wgs_all_in),
    .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_last, .rd_lo, .rd_hi,
    .bus_err, .bus_decerr, .bus_surface,
    .wgs_valid, .wgs_beat, .wgs_pop, .wmb_valid, .wmb_beat, .wmb_pop, .dat_valid, .dat_beat, .dat_pop
  );

  axi_rd_engine #(
    .ADDR_W          (AXI_ADDR_W),
    .DATA_W          (AXI_DATA_W),
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

  // beats come back in command order and carry their lanes; the address and first flag are not needed
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{rd_addr, rd_first, j_dense[63:34], dense_elems[32], j_wbase, j_mbase, j_gbase};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- WGS entries, expansion, output queue
  logic        ent_valid, ent_pop;
  logic [31:0] ent;

  wr_wgs_unpack #(.AXI_DATA_W(AXI_DATA_W), .ENT_DEPTH(ENT_DEPTH)) u_wgs (
    .clk, .rst, .init, .groups (j_groups), .beat_valid (wgs_valid), .beat (wgs_beat), .beat_pop (wgs_pop),
    .ent_valid, .ent, .ent_pop, .sum (wgs_sum), .all_in (wgs_all_in)
  );

  localparam int NB = OUT_DATA_W / 8;
  localparam int OW = OUT_DATA_W + NB + 1 + 16 + 8;
  logic                  push, o_last, out_full, q_pop;
  logic [OUT_DATA_W-1:0] o_data;
  logic [NB-1:0]         o_keep;
  logic [15:0]           o_user, grp;
  logic [7:0]            o_bytes, o_zeros, o_comp, q_bytes;
  logic [1:0]            q_count;

  wr_expander #(.AXI_DATA_W(AXI_DATA_W), .OUT_DATA_W(OUT_DATA_W)) u_exp (
    .clk, .rst, .init, .run, .compressed (j_compressed), .e2 (job_e2), .groups (j_groups[15:0]),
    .group_elems, .last_elems, .weight_bytes (j_wbytes),
    .wmb_valid, .wmb_beat, .wmb_pop, .dat_valid, .dat_beat, .dat_pop, .ent_valid, .ent, .ent_pop,
    .out_room (!out_full), .push, .o_data, .o_keep, .o_last, .o_user,
    .all_done, .err_mismatch, .err_overrun, .grp, .o_bytes, .o_zeros, .o_comp
  );

  logic out_emp;
  wr_fifo #(.W(OW), .DEPTH(2)) u_out (
    .clk, .rst, .clear (1'b0), .push, .din ({o_bytes, o_user, o_last, o_keep, o_data}), .pop (q_pop),
    .dout ({q_bytes, m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata}),
    .empty (out_emp), .full (out_full), .count (q_count)
  );
  assign m_axis_tvalid = !out_emp;
  assign q_pop         = m_axis_tvalid && m_axis_tready;
  assign out_empty     = out_emp;

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_q;
  assign unused_q = ^{q_count, grp};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- status and counters
  logic [31:0] total_bytes;
  assign total_bytes = j_dense[31:0];
  logic [31:0] groups_done, dense_out, comp_bytes, zeros, cycles, beats, out_beats;

  wr_counters u_cnt (
    .clk, .rst, .clear (starting), .busy, .r_beat, .pop (q_pop), .pop_last (m_axis_tlast), .pop_bytes (q_bytes),
    .push, .push_zeros (o_zeros), .push_comp (o_comp),
    .groups_done, .dense_out, .comp_bytes, .zeros, .cycles, .beats, .out_beats
  );

  always_comb begin
    rd_val = regs_q;    // RW registers read back; RO and WO registers hold 0 in regs_q (WMASK 0)
    rd_val[8*REG_ID               +: 32] = WR_ID;
    rd_val[8*REG_PARAMS           +: 32] = {8'(AXI_ADDR_W), 8'(MAX_OUTSTANDING), 16'(AXI_DATA_W)};
    rd_val[8*REG_STATUS           +: 32] = '0;
    rd_val[8*REG_STATUS + STATUS_BUSY_BIT]  = busy;
    rd_val[8*REG_STATUS + STATUS_DONE_BIT]  = done_q;
    rd_val[8*REG_STATUS + STATUS_ERROR_BIT] = (err_q != 32'd0);
    rd_val[8*REG_ERROR            +: 32] = err_q;
    rd_val[8*WR_REG_TOTAL_BYTES   +: 32] = total_bytes;
    rd_val[8*WR_REG_GROUPS_DONE   +: 32] = groups_done;
    rd_val[8*WR_REG_DENSE_OUT     +: 32] = dense_out;
    rd_val[8*WR_REG_COMP_BYTES    +: 32] = comp_bytes;
    rd_val[8*WR_REG_ZEROS         +: 32] = zeros;
    rd_val[8*WR_REG_CYCLES        +: 32] = cycles;
    rd_val[8*WR_REG_BEATS         +: 32] = beats;
    rd_val[8*WR_REG_OUT_BEATS     +: 32] = out_beats;
    rd_val[8*WR_REG_FAULT         +: 32] = fault_q;
  end

endmodule
