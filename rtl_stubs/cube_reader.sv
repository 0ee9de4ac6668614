// cube_reader: reads a blocked activation cube (models/blocked.py BlockedCubeDescriptor) over AXI4 and
// streams its atoms in canonical order n -> channel group -> h -> w (w fastest).
//
// Register map (AXI4-Lite, 32-bit registers; offsets and fields are the localparams of dla_pkg.sv):
//   0x00 ID          RO  dla_pkg::CUBE_READER_ID
//   0x04 PARAMS      RO  [15:0] AXI_DATA_W, [23:16] MAX_OUTSTANDING, [31:24] AXI_ADDR_W
//   0x08 CTRL        WO  [0] START (ignored while busy); reads 0
//   0x0C CFG         RW  [3:0] LAYOUT, [8] FP16, [9] NAN_TO_ZERO (other bits read 0)
//   0x10 STATUS      RO  [0] BUSY, [1] DONE (cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR       RO  [9:0] validator rules ERR_LAYOUT..ERR_ADDR_OVERFLOW, [16] ERR_BUS_SLVERR,
//                        [17] ERR_BUS_DECERR (cleared by START)
//   0x18 BASE_LO     RW  0x1C BASE_HI RW   base address (64 bits; the validator checks it against
//                                           2**AXI_ADDR_W)
//   0x20 ATOM_BYTES  RW  0x24 ELEM_BYTES RW
//   0x28 COUNT_W     RW  0x2C COUNT_H RW  0x30 COUNT_C RW  0x34 COUNT_N RW   (full 32-bit registers;
//                                           the validator refuses values outside 1..65535)
//   0x38 STRIDE_H    RW  0x3C STRIDE_C RW  0x40 STRIDE_N RW   bytes
//   0x44 ATOMS_SENT  RO  atoms handed over on m_axis (tvalid && tready) by the last job
//   0x48 NAN_COUNT   RO  0x4C INF_COUNT RO   fp16 NaN / infinity elements of the atoms sent
//   0x50 CYCLES      RO  clock cycles with STATUS.BUSY set (from the cycle after the START write to DONE)
//   0x54 BEATS       RO  AXI R beats accepted by the last job (drained beats after an error included)
//   Unmapped offsets (0x58..0xFC) answer SLVERR; writes to RO registers answer OKAY and are ignored.
//
// Behaviour:
//   * START latches the descriptor registers and runs desc_validator. An illegal descriptor sets its
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
  import dla_pkg::*;
#(
  parameter int AXI_DATA_W      = 256,     // 64 .. 8*MAX_ATOM_BYTES, power of two (256 and 512 tested)
  parameter int AXI_ADDR_W      = 40,      // 12 .. 64
  parameter int AXI_ID_W        = 4,
  parameter int MAX_OUTSTANDING = 8,       // bursts in flight (1 .. 255)
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

  localparam int BW     = AXI_DATA_W / 8;            // bytes per beat
  localparam int LB     = $clog2(BW);
  localparam int AB     = MAX_ATOM_BYTES;
  localparam int NS     = (AB > BW) ? AB / BW : 1;   // beats per largest atom
  localparam int KW     = (NS > 1) ? $clog2(NS) : 1;
  localparam int LEN_W  = AXI_ADDR_W + 1;
  localparam int NR     = REG_BEATS / 4 + 1;         // registers 0x00 .. 0x54
  localparam int SZW    = 72;                        // run-size arithmetic

  // ---------------------------------------------------------------- register file
  localparam logic [NR*32-1:0] ONES = {{(NR*32-32){1'b0}}, 32'hFFFF_FFFF};
  localparam logic [NR*32-1:0] WMASK =
      ({{(NR*32-32){1'b0}}, 32'h0000_030F} << (8 * REG_CFG))
    | (ONES << (8 * REG_BASE_LO))  | (ONES << (8 * REG_BASE_HI))
    | (ONES << (8 * REG_ATOM_BYTES)) | (ONES << (8 * REG_ELEM_BYTES))
    | (ONES << (8 * REG_COUNT_W))  | (ONES << (8 * REG_COUNT_H))
    | (ONES << (8 * REG_COUNT_C))  | (ONES << (8 * REG_COUNT_N))
    | (ONES << (8 * REG_STRIDE_H)) | (ONES << (8 * REG_STRIDE_C)) | (ONES << (8 * REG_STRIDE_N));

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

  // register fields
  logic [31:0] r_cfg, r_atom, r_elem, r_cw, r_ch, r_cc, r_cn, r_sh, r_sc, r_sn;
  logic [63:0] r_base;
  assign r_cfg  = regs_q[8*REG_CFG        +: 32];
  assign r_base = {regs_q[8*REG_BASE_HI +: 32], regs_q[8*REG_BASE_LO +: 32]};
  assign r_atom = regs_q[8*REG_ATOM_BYTES +: 32];
  assign r_elem = regs_q[8*REG_ELEM_BYTES +: 32];
  assign r_cw   = regs_q[8*REG_COUNT_W    +: 32];
  assign r_ch   = regs_q[8*REG_COUNT_H    +: 32];
  assign r_cc   = regs_q[8*REG_COUNT_C    +: 32];
  assign r_cn   = regs_q[8*REG_COUNT_N    +: 32];
  assign r_sh   = regs_q[8*REG_STRIDE_H   +: 32];
  assign r_sc   = regs_q[8*REG_STRIDE_C   +: 32];
  assign r_sn   = regs_q[8*REG_STRIDE_N   +: 32];

  // ---------------------------------------------------------------- job state
  // job states: plain constants, not an enum (Icarus 11 leaves an enum variable at z when it appears in
  // an instance port expression, as `state` does for the validator start below)
  localparam logic [2:0] ST_IDLE = 3'd0, ST_VAL = 3'd1, ST_SET_A = 3'd2, ST_SET_B = 3'd3, ST_SET_C = 3'd4,
                         ST_RUN = 3'd5, ST_FIN = 3'd6;
  logic [2:0] state;

  logic        start_req, done_q, stopped;
  logic [31:0] err_q, atoms_sent, nan_total, inf_total, cycles, beats;

  assign start_req = wr_pulse[REG_CTRL / 4] && wr_strb[CTRL_START_BIT / 8] && wr_data[CTRL_START_BIT];
  assign irq       = done_q;

  always_comb begin
    rd_val = regs_q;    // RW registers read back; RO and WO registers hold 0 in regs_q (WMASK 0)
    rd_val[8*REG_ID         +: 32] = CUBE_READER_ID;
    rd_val[8*REG_PARAMS     +: 32] = {8'(AXI_ADDR_W), 8'(MAX_OUTSTANDING), 16'(AXI_DATA_W)};
    rd_val[8*REG_STATUS     +: 32] = '0;
    rd_val[8*REG_STATUS + STATUS_BUSY_BIT]  = (state != ST_IDLE);
    rd_val[8*REG_STATUS + STATUS_DONE_BIT]  = done_q;
    rd_val[8*REG_STATUS + STATUS_ERROR_BIT] = (err_q != 32'd0);
    rd_val[8*REG_ERROR      +: 32] = err_q;
    rd_val[8*REG_ATOMS_SENT +: 32] = atoms_sent;
    rd_val[8*REG_NAN_COUNT  +: 32] = nan_total;
    rd_val[8*REG_INF_COUNT  +: 32] = inf_total;
    rd_val[8*REG_CYCLES     +: 32] = cycles;
    rd_val[8*REG_BEATS      +: 32] = beats;
  end

  // job copy of the descriptor (latched by START; only used once the validator accepted it)
  logic                  j_fp16, j_n2z;
  logic [AXI_ADDR_W-1:0] j_base;
  logic [7:0]            j_atom;
  logic [15:0]           j_cw, j_ch, j_cc, j_cn;
  logic [31:0]           j_sh, j_sc, j_sn;
  logic                  j_small;          // atom <= beat
  logic [AB-1:0]         j_keep;
  logic [KW-1:0]         j_lastk;          // beats per atom - 1 (atoms larger than a beat)

  // ---------------------------------------------------------------- validator
  logic                       val_done;
  logic [ERR_ADDR_OVERFLOW:0] val_err;
  logic                       val_busy;

  desc_validator #(.ADDR_W(AXI_ADDR_W)) u_val (
    .clk, .rst,
    .start      (state == ST_IDLE && start_req),
    .layout     (r_cfg[CFG_LAYOUT_LSB +: 4]),
    .fp16       (r_cfg[CFG_FP16_BIT]),
    .base       (r_base),
    .atom_bytes (r_atom),
    .elem_bytes (r_elem),
    .count_w    (r_cw),
    .count_h    (r_ch),
    .count_c    (r_cc),
    .count_n    (r_cn),
    .stride_h   (r_sh),
    .stride_c   (r_sc),
    .stride_n   (r_sn),
    .busy       (val_busy),
    .done       (val_done),
    .errors     (val_err)
  );

  // ---------------------------------------------------------------- run structure (SET_A..SET_C)
  logic [SZW-1:0]   s0, s1_q, s2_q, s3;      // bytes of a line, surface, batch, cube when packed
  logic             m_h_q, m_c_q, m_n;       // level merged into one contiguous run
  logic [LEN_W-1:0] run_len;
  logic [15:0]      e_h, e_c, e_n;           // runs per level (1 when merged)

  always_comb begin
    s0  = SZW'(j_cw) * SZW'(j_atom);
    s3  = SZW'(j_cn) * s2_q;
    m_n = m_c_q && (j_cn == 16'd1 || SZW'(j_sn) == s2_q);
  end

  // ---------------------------------------------------------------- command issue
  logic [15:0]           i_h, i_c, i_n;
  logic [AXI_ADDR_W-1:0] a_h, a_c, a_n;
  logic                  issue_done;
  logic                  cmd_valid, cmd_ready, cmd_fire;
  logic                  eng_busy;

  assign cmd_valid = (state == ST_RUN) && !issue_done && !stopped;
  assign cmd_fire  = cmd_valid && cmd_ready;

  // ---------------------------------------------------------------- read engine
  logic                  rd_valid, rd_ready, rd_first, rd_last, r_beat;
  logic [AXI_DATA_W-1:0] rd_data;
  logic [1:0]            rd_resp;
  logic [AXI_ADDR_W-1:0] rd_addr;
  logic [LB-1:0]         rd_lo, rd_hi;

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
    .cmd_addr (a_h),
    .cmd_len  (run_len),
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
  assign unused_ok = ^{rd_addr, rd_first, rd_last, val_busy};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- beats -> atoms
  logic                  mid;                 // inside a beat (atoms smaller than a beat)
  logic [LB-1:0]         ofs_q;               // byte lane of the next atom in that beat
  logic [KW-1:0]         k_q;                 // beat index inside the atom (atoms larger than a beat)
  logic [AB*8-1:0]       abuf;                // earlier beats of the atom being assembled
  logic [1:0]            q_cnt;               // output FIFO occupancy

  logic                  cons_en, bus_err, acc, beat_done, last_k, emit;
  logic [LB-1:0]         cur_ofs;
  logic [LB+8:0]         nxt_ofs;
  logic [AXI_DATA_W-1:0] shifted;
  logic [AB*8-1:0]       atom_raw, atom_keep, atom_out;
  logic [7:0]            nan_n, inf_n;
  logic [AB/2-1:0]       el_exp31, el_nan, el_inf;

  assign bus_err = rd_valid && rd_resp[1];           // SLVERR 2'b10, DECERR 2'b11

  always_comb begin
    cons_en   = (state == ST_RUN) && !stopped;
    acc       = (q_cnt != 2'd2);
    cur_ofs   = mid ? ofs_q : rd_lo;
    nxt_ofs   = (LB+9)'(cur_ofs) + (LB+9)'(j_atom);
    beat_done = nxt_ofs > (LB+9)'(rd_hi);
    last_k    = (k_q == j_lastk);
    shifted   = rd_data >> {cur_ofs, 3'b000};
    if (j_small) begin
      atom_raw = (AB*8)'(shifted);
      emit     = cons_en && rd_valid && !bus_err && acc;
      rd_ready = cons_en && (bus_err || (acc && beat_done));
    end else begin
      atom_raw = abuf;
      for (int s = 0; s < NS; s++) begin
        if (KW'(s) == k_q) atom_raw[s*AXI_DATA_W +: AXI_DATA_W] = rd_data;
      end
      emit     = cons_en && rd_valid && !bus_err && last_k && acc;
      rd_ready = cons_en && (bus_err || !last_k || acc);
    end
    // keep the atom's bytes only
    atom_keep = '0;
    for (int b = 0; b < AB; b++) begin
      if (j_keep[b]) atom_keep[8*b +: 8] = atom_raw[8*b +: 8];
    end
  end

  // fp16 NaN / infinity detection per element and optional NaN flush
  for (genvar e = 0; e < AB / 2; e++) begin : g_fp16
    assign el_exp31[e] = j_fp16 && (atom_keep[16*e + 10 +: 5] == 5'h1F);
    assign el_nan[e]   = el_exp31[e] && (atom_keep[16*e +: 10] != 10'd0);
    assign el_inf[e]   = el_exp31[e] && (atom_keep[16*e +: 10] == 10'd0);
    assign atom_out[16*e +: 16] = (el_nan[e] && j_n2z) ? 16'h0000 : atom_keep[16*e +: 16];
  end

  always_comb begin
    nan_n = '0;
    inf_n = '0;
    for (int e = 0; e < AB / 2; e++) begin
      nan_n = nan_n + 8'(el_nan[e]);
      inf_n = inf_n + 8'(el_inf[e]);
    end
  end

  // ---------------------------------------------------------------- output FIFO (2 atoms)
  logic [AB*8-1:0] q_data [2];
  logic [63:0]     q_user [2];
  logic            q_last [2];
  logic [7:0]      q_nan  [2];
  logic [7:0]      q_inf  [2];
  logic            q_wp, q_rp;
  logic [15:0]     o_w, o_h, o_c, o_n;       // coordinates of the next atom emitted
  logic            o_last, pop;

  assign o_last        = (o_w == j_cw - 16'd1) && (o_h == j_ch - 16'd1) && (o_c == j_cc - 16'd1)
                      && (o_n == j_cn - 16'd1);
  assign m_axis_tvalid = (q_cnt != 2'd0);
  assign m_axis_tdata  = q_data[q_rp];
  assign m_axis_tuser  = q_user[q_rp];
  assign m_axis_tlast  = q_last[q_rp];
  assign m_axis_tkeep  = j_keep;
  assign pop           = m_axis_tvalid && m_axis_tready;

  always_ff @(posedge clk) begin
    if (rst) begin
      q_wp  <= 1'b0;
      q_rp  <= 1'b0;
      q_cnt <= '0;
      for (int i = 0; i < 2; i++) begin
        q_data[i] <= '0;
        q_user[i] <= '0;
        q_last[i] <= 1'b0;
        q_nan[i]  <= '0;
        q_inf[i]  <= '0;
      end
    end else begin
      if (emit) begin
        q_data[q_wp] <= atom_out;
        q_user[q_wp] <= {o_n, o_c, o_h, o_w};
        q_last[q_wp] <= o_last;
        q_nan[q_wp]  <= nan_n;
        q_inf[q_wp]  <= inf_n;
        q_wp         <= !q_wp;
      end
      if (pop) q_rp <= !q_rp;
      q_cnt <= q_cnt + 2'(emit) - 2'(pop);
    end
  end

  // ---------------------------------------------------------------- control
  always_ff @(posedge clk) begin
    if (rst) begin
      state      <= ST_IDLE;
      done_q     <= 1'b0;
      stopped    <= 1'b0;
      err_q      <= '0;
      atoms_sent <= '0;
      nan_total  <= '0;
      inf_total  <= '0;
      cycles     <= '0;
      beats      <= '0;
      j_fp16     <= 1'b0;
      j_n2z      <= 1'b0;
      j_base     <= '0;
      j_atom     <= '0;
      j_cw       <= '0;
      j_ch       <= '0;
      j_cc       <= '0;
      j_cn       <= '0;
      j_sh       <= '0;
      j_sc       <= '0;
      j_sn       <= '0;
      j_small    <= 1'b1;
      j_keep     <= '0;
      j_lastk    <= '0;
      s1_q       <= '0;
      s2_q       <= '0;
      m_h_q      <= 1'b0;
      m_c_q      <= 1'b0;
      run_len    <= '0;
      e_h        <= '0;
      e_c        <= '0;
      e_n        <= '0;
      i_h        <= '0;
      i_c        <= '0;
      i_n        <= '0;
      a_h        <= '0;
      a_c        <= '0;
      a_n        <= '0;
      issue_done <= 1'b0;
      mid        <= 1'b0;
      ofs_q      <= '0;
      k_q        <= '0;
      abuf       <= '0;
      o_w        <= '0;
      o_h        <= '0;
      o_c        <= '0;
      o_n        <= '0;
    end else begin
      if (state != ST_IDLE) cycles <= cycles + 32'd1;
      if (state != ST_IDLE && r_beat) beats <= beats + 32'd1;
      if (pop) begin
        atoms_sent <= atoms_sent + 32'd1;
        nan_total  <= nan_total + 32'(q_nan[q_rp]);
        inf_total  <= inf_total + 32'(q_inf[q_rp]);
      end

      case (state)
        ST_IDLE: if (start_req) begin
          state      <= ST_VAL;
          done_q     <= 1'b0;
          stopped    <= 1'b0;
          err_q      <= '0;
          atoms_sent <= '0;
          nan_total  <= '0;
          inf_total  <= '0;
          cycles     <= '0;
          beats      <= '0;
          j_fp16     <= r_cfg[CFG_FP16_BIT];
          j_n2z      <= r_cfg[CFG_NAN_TO_ZERO_BIT];
          j_base     <= r_base[AXI_ADDR_W-1:0];
          j_atom     <= r_atom[7:0];
          j_cw       <= r_cw[15:0];
          j_ch       <= r_ch[15:0];
          j_cc       <= r_cc[15:0];
          j_cn       <= r_cn[15:0];
          j_sh       <= r_sh;
          j_sc       <= r_sc;
          j_sn       <= r_sn;
        end
        ST_VAL: if (val_done) begin
          if (val_err != '0) begin
            err_q[ERR_ADDR_OVERFLOW:0] <= val_err;
            state <= ST_FIN;
          end else begin
            state <= ST_SET_A;
          end
        end
        ST_SET_A: begin
          // line -> surface
          s1_q    <= SZW'(j_ch) * s0;
          m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) == s0);
          j_small <= ({24'd0, j_atom} <= 32'(BW));
          j_lastk <= KW'(({24'd0, j_atom} >> LB) - 32'd1);
          for (int b = 0; b < AB; b++) j_keep[b] <= (32'(b) < {24'd0, j_atom});
          state   <= ST_SET_B;
        end
        ST_SET_B: begin
          // surface -> batch
          s2_q  <= SZW'(j_cc) * s1_q;
          m_c_q <= m_h_q && (j_cc == 16'd1 || SZW'(j_sc) == s1_q);
          state <= ST_SET_C;
        end
        ST_SET_C: begin
          // batch -> cube; first run address and loop bounds
          run_len    <= LEN_W'(m_n ? s3 : m_c_q ? s2_q : m_h_q ? s1_q : s0);
          e_h        <= m_h_q ? 16'd1 : j_ch;
          e_c        <= m_c_q ? 16'd1 : j_cc;
          e_n        <= m_n ? 16'd1 : j_cn;
          i_h        <= '0;
          i_c        <= '0;
          i_n        <= '0;
          a_h        <= j_base;
          a_c        <= j_base;
          a_n        <= j_base;
          issue_done <= 1'b0;
          mid        <= 1'b0;
          k_q        <= '0;
          o_w        <= '0;
          o_h        <= '0;
          o_c        <= '0;
          o_n        <= '0;
          state      <= ST_RUN;
        end
        ST_RUN: begin
          // runs: h fastest, then c, then n
          if (cmd_fire) begin
            if (i_h != e_h - 16'd1) begin
              i_h <= i_h + 16'd1;
              a_h <= a_h + AXI_ADDR_W'(j_sh);
            end else begin
              i_h <= '0;
              if (i_c != e_c - 16'd1) begin
                i_c <= i_c + 16'd1;
                a_c <= a_c + AXI_ADDR_W'(j_sc);
                a_h <= a_c + AXI_ADDR_W'(j_sc);
              end else begin
                i_c <= '0;
                if (i_n != e_n - 16'd1) begin
                  i_n <= i_n + 16'd1;
                  a_n <= a_n + AXI_ADDR_W'(j_sn);
                  a_c <= a_n + AXI_ADDR_W'(j_sn);
                  a_h <= a_n + AXI_ADDR_W'(j_sn);
                end else begin
                  issue_done <= 1'b1;
                end
              end
            end
          end
          // beats -> atoms bookkeeping
          if (rd_valid && rd_ready && !bus_err) begin
            if (j_small) begin
              mid <= 1'b0;
            end else begin
              k_q <= last_k ? '0 : k_q + KW'(1);
              for (int s = 0; s < NS; s++) begin
                if (KW'(s) == k_q) abuf[s*AXI_DATA_W +: AXI_DATA_W] <= rd_data;
              end
            end
          end else if (emit && j_small) begin
            mid   <= 1'b1;
            ofs_q <= LB'(nxt_ofs);
          end
          if (emit) begin
            if (o_w != j_cw - 16'd1) o_w <= o_w + 16'd1;
            else begin
              o_w <= '0;
              if (o_h != j_ch - 16'd1) o_h <= o_h + 16'd1;
              else begin
                o_h <= '0;
                if (o_c != j_cc - 16'd1) o_c <= o_c + 16'd1;
                else begin
                  o_c <= '0;
                  o_n <= o_n + 16'd1;
                end
              end
            end
          end
          // RRESP error: stop the job, keep draining
          if (cons_en && bus_err) begin
            stopped <= 1'b1;
            if (rd_resp[0]) err_q[ERR_BUS_DECERR] <= 1'b1;
            else            err_q[ERR_BUS_SLVERR] <= 1'b1;
          end
          if ((issue_done || stopped) && !eng_busy && q_cnt == 2'd0) state <= ST_FIN;
        end
        ST_FIN: begin
          done_q <= 1'b1;
          state  <= ST_IDLE;
        end
        default: state <= ST_IDLE;
      endcase
    end
  end

endmodule
