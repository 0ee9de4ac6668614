// axi_rd_engine: the one AXI4 read engine of the DLA readers (cube reader, weight decompressor,
// pixel reader).
//
// Commands: a contiguous run of bytes (cmd_addr, cmd_len >= 1). The engine reads every bus beat that
// holds a byte of the run with INCR bursts: ARSIZE = log2(DATA_W/8) (full bus width), ARLEN + 1 up to
// MAX_BURST beats (<= 256), no burst crosses a 4 KB boundary, ARID = ARID (one ID, so data returns in
// order), ARLOCK normal, ARCACHE 4'b0011 (normal non-cacheable bufferable), ARPROT 3'b000. Up to
// MAX_OUTSTANDING bursts are in flight; an AR is issued every cycle while there is room, and a new
// command is accepted in the cycle its predecessor issues its last burst, so back-to-back commands
// and zero-latency memory sustain one beat per cycle.
//
// Reads in flight: by Little's law one-beat bursts (short lines: one atom per line, padded
// pitches) move at most MAX_OUTSTANDING beats per round trip (memory latency + about 4 cycles), so the
// default, 128, keeps one beat per cycle up to a latency of about 124 cycles (measured in the cube reader:
// 0.939 beats per cycle at latency 128 on one-atom lines, 0.989 at 32; docs/performance.md). Each burst in flight costs one entry of
// the burst FIFO: its beat address without the byte-lane bits, ARLEN, first/last-of-command flags and the
// command's first/last byte lanes (ADDR_W - LB + 8 + 2 + 2*LB bits; 55 at 40/256). The entries are
// written once at AR issue and read at the head only: the FIFO is an sdp_ram (sdp_ram.sv, registered read of
// the next head entry), which synthesis maps to memory bits (7040 at 128 slots), not flip-flops.
// No data buffer: the engine holds RREADY while its client is not ready (one ID, in order). Clients
// report MAX_OUTSTANDING in an 8-bit register field (PARAMS[23:16]): keep it <= 255.
//
// Beats (valid/ready, in command order): rd_data, rd_resp (RRESP of the beat: OKAY/EXOKAY/SLVERR/
// DECERR, passed through for the client to act on), rd_addr (bus-aligned beat address), rd_first /
// rd_last (first / last beat of its command), rd_lo / rd_hi (first / last byte lane of the beat that
// belongs to the command). m_axi_rready follows rd_ready: a slow client back-pressures the bus, so
// no data buffer is needed here.
//
// stop (level): no new AR is issued (an AR already presented stays valid until accepted, as AXI
// requires), the current command is dropped, cmd_ready is low, and every outstanding R beat is
// accepted and discarded (rd_valid low) so the bus stays legal. busy falls when nothing is in flight;
// the client then releases stop. r_beat pulses for every R handshake, drained ones included.
//
// Parameters: their legal ranges are the param_contract lines below the ports (checked at elaboration); what is
// built and tested at which configuration: docs/configurations.md (generated from those lines and the testplan).
`timescale 1ns/1ps
`include "axi_ports.svh"
`include "axi_rd_engine_ports.svh"
module axi_rd_engine #(
  parameter int              ADDR_W          = 40,
  parameter int              DATA_W          = 256,
  parameter int              ID_W            = 4,
  parameter int              MAX_OUTSTANDING = 128,
  parameter int              MAX_BURST       = 256,
  parameter int              LEN_W           = ADDR_W + 1,
  parameter logic [ID_W-1:0] ARID            = '0
) (
  input  logic                        clk,
  input  logic                        rst,          // synchronous, active high

  `RD_ENGINE_CMD_PORTS(input, output, ADDR_W, LEN_W),
  `AXI4_RD_PORTS(m_axi_, output, input, ID_W, ADDR_W, DATA_W),
  `RD_ENGINE_BEAT_PORTS(input, output, ADDR_W, DATA_W)
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("ADDR_W"),             .VALUE (ADDR_W),             .LO (12), .HI (64)) u_contract_addr_w ();
  param_contract #(.NAME ("DATA_W"),             .VALUE (DATA_W),             .LO (64), .HI (1024), .POW2 (1)) u_contract_data_w ();
  param_contract #(.NAME ("ID_W"),               .VALUE (ID_W),               .LO (1), .HI (32)) u_contract_id_w ();
  param_contract #(.NAME ("MAX_OUTSTANDING"),    .VALUE (MAX_OUTSTANDING),    .LO (1), .HI (255)) u_contract_max_outstanding ();
  param_contract #(.NAME ("MAX_BURST"),          .VALUE (MAX_BURST),          .LO (1), .HI (256)) u_contract_max_burst ();
  param_contract #(.NAME ("LEN_W"),              .VALUE (LEN_W),              .LO (1), .HI (ADDR_W + 1)) u_contract_len_w ();

  localparam int BW      = DATA_W / 8;                         // bytes per beat
  localparam int LB      = $clog2(BW);
  localparam int E_W     = ((ADDR_W > LEN_W) ? ADDR_W : LEN_W) + 1;   // end address arithmetic
  // Beat counts (a command's beats, the next burst's): wide enough for the command (E_W - LB + 1) AND for the
  // constants they are compared with, MAX_BURST (256: 9 bits) and the beats to a 4 KB page end (4096 / BW). Issue
  // 32: at ADDR_W 12 and DATA_W 1024 a command needs 8 bits, BEATS_W'(MAX_BURST) truncated 256 to 0 and every burst
  // was cut to 0 beats (ARLEN 255 across the page, the command never ended).
  localparam int CMD_BW  = E_W - LB + 1;
  localparam int CAP_BW  = $clog2(((MAX_BURST > 4096 / BW) ? MAX_BURST : 4096 / BW) + 1);
  localparam int BEATS_W = (CMD_BW > CAP_BW) ? CMD_BW : CAP_BW;
  localparam int PTR_W   = (MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1;
  localparam int CNT_W   = $clog2(MAX_OUTSTANDING + 1);

  // One ID is used, so RID carries no information; the engine counts beats itself (RLAST is implied
  // by the burst length it issued).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{m_axi_rid, m_axi_rlast};
  /* verilator lint_on UNUSEDSIGNAL */

  assign m_axi_arid    = ARID;
  assign m_axi_arsize  = 3'(LB);
  assign m_axi_arburst = 2'b01;     // INCR
  assign m_axi_arlock  = 1'b0;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_arprot  = 3'b000;

  // ---------------------------------------------------------------- command split into bursts
  logic               act;          // a command has bursts left to issue
  logic [ADDR_W-1:0]  cur;          // next burst address (beat aligned)
  logic [BEATS_W-1:0] rem;          // beats left to issue
  logic               c_first;      // next burst is the first of its command
  logic [LB-1:0]      c_lo, c_hi;
  logic [CNT_W-1:0]   outs;         // bursts issued and not fully returned (= burst FIFO occupancy)

  logic [E_W-1:0]     cmd_end;
  logic [BEATS_W-1:0] cmd_beats;
  logic [12:0]        to4k;         // beats up to the next 4 KB boundary
  logic [11:0]        cur_page_ofs;

  assign cur_page_ofs = cur[11:0];
  logic [BEATS_W-1:0] blen;         // beats of the next burst
  logic               issue, last_burst, cmd_fire, pop, r_fire;

  assign cmd_end   = E_W'(cmd_addr) + E_W'(cmd_len) - E_W'(1);
  assign cmd_beats = BEATS_W'(cmd_end[E_W-1:LB]) - BEATS_W'(cmd_addr[ADDR_W-1:LB]) + BEATS_W'(1);

  always_comb begin
    to4k      = (13'd4096 - {1'b0, cur_page_ofs}) >> LB;
    blen      = rem;
    if (blen > BEATS_W'(to4k))      blen = BEATS_W'(to4k);
    if (blen > BEATS_W'(MAX_BURST)) blen = BEATS_W'(MAX_BURST);
    issue      = act && !stop && (!m_axi_arvalid || m_axi_arready) && (outs < CNT_W'(MAX_OUTSTANDING));
    last_burst = (rem == blen);
    cmd_ready  = !stop && (!act || (issue && last_burst));
    cmd_fire   = cmd_valid && cmd_ready;
  end

  // ---------------------------------------------------------------- burst FIFO (one entry per AR)
  // One sdp_ram word per burst in flight: {beat address >> LB, ARLEN, first, last, first lane, last lane}.
  // The RAM's read port is given the head pointer of the next cycle (rptr_n), so its registered output is the
  // head entry in every cycle, as an asynchronous read of rptr would be (sdp_ram.sv: write-first).
  localparam int FW = (ADDR_W - LB) + 8 + 2 + 2 * LB;
  logic [ADDR_W-LB-1:0] h_word;     // head entry: beat address >> LB
  logic [7:0]        h_len;
  logic              h_first, h_last;
  logic [LB-1:0]     h_lo, h_hi;
  logic [PTR_W-1:0]  wptr, rptr, rptr_n;
  logic [7:0]        rbeat;         // beat index inside the head burst
  logic              f_we;
  logic [FW-1:0]     f_wdata, f_head;

  function automatic logic [PTR_W-1:0] ptr_inc(input logic [PTR_W-1:0] p);
    ptr_inc = (p == PTR_W'(MAX_OUTSTANDING - 1)) ? PTR_W'(0) : p + PTR_W'(1);
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      act           <= 1'b0;
      cur           <= '0;
      rem           <= '0;
      c_first       <= 1'b0;
      c_lo          <= '0;
      c_hi          <= '0;
      m_axi_arvalid <= 1'b0;
      m_axi_araddr  <= '0;
      m_axi_arlen   <= '0;
      wptr          <= '0;
    end else begin
      if (issue) begin
        m_axi_arvalid  <= 1'b1;
        m_axi_araddr   <= cur;
        m_axi_arlen    <= 8'(blen - BEATS_W'(1));
        wptr           <= ptr_inc(wptr);
        cur            <= cur + (ADDR_W'(blen) << LB);
        rem            <= rem - blen;
        c_first        <= 1'b0;
        if (last_burst) act <= 1'b0;
      end else if (m_axi_arvalid && m_axi_arready) begin
        m_axi_arvalid <= 1'b0;
      end
      if (cmd_fire) begin
        act     <= 1'b1;
        cur     <= {cmd_addr[ADDR_W-1:LB], {LB{1'b0}}};
        rem     <= cmd_beats;
        c_first <= 1'b1;
        c_lo    <= cmd_addr[LB-1:0];
        c_hi    <= cmd_end[LB-1:0];
      end
      if (stop) act <= 1'b0;
    end
  end

  assign f_we    = issue && !rst;
  assign f_wdata = {cur[ADDR_W-1:LB], 8'(blen - BEATS_W'(1)), c_first, last_burst, c_lo, c_hi};
  assign rptr_n  = rst ? '0 : (pop ? ptr_inc(rptr) : rptr);
  assign {h_word, h_len, h_first, h_last, h_lo, h_hi} = f_head;

  sdp_ram #(.W(FW), .DEPTH(MAX_OUTSTANDING)) u_bursts (
    .clk, .we (f_we), .waddr (wptr), .wdata (f_wdata), .raddr (rptr_n), .rdata (f_head)
  );

  // ---------------------------------------------------------------- read data
  logic head_first, head_last;

  assign r_fire       = m_axi_rvalid && m_axi_rready;
  assign pop          = r_fire && (rbeat == h_len);
  assign m_axi_rready = (outs != '0) && (stop || rd_ready);
  assign rd_valid     = m_axi_rvalid && (outs != '0) && !stop;
  assign rd_data      = m_axi_rdata;
  assign rd_resp      = m_axi_rresp;
  assign rd_addr      = {h_word + (ADDR_W-LB)'(rbeat), {LB{1'b0}}};
  assign head_first   = h_first && (rbeat == 8'd0);
  assign head_last    = h_last && (rbeat == h_len);
  assign rd_first     = head_first;
  assign rd_last      = head_last;
  assign rd_lo        = head_first ? h_lo : '0;
  assign rd_hi        = head_last ? h_hi : {LB{1'b1}};
  assign r_beat       = r_fire;
  assign busy         = act || (outs != '0);

  always_ff @(posedge clk) begin
    if (rst) begin
      rptr  <= '0;
      rbeat <= '0;
      outs  <= '0;
    end else begin
      if (r_fire) begin
        if (pop) begin
          rbeat <= '0;
          rptr  <= ptr_inc(rptr);
        end else begin
          rbeat <= rbeat + 8'd1;
        end
      end
      outs <= outs + CNT_W'(issue) - CNT_W'(pop);
    end
  end

`ifdef DLA_ASSERT
  // Assertions, not design (docs/formal.md): the property bundle reads the ports (`.*`) and, for its invariants,
  // its internal state (d_*). Icarus 11 and Yosys 0.23 have no `bind`, so the one binding is this instance;
  // dlaverif/flow/runner.py and dlaverif/flow/formal.py define DLA_ASSERT, synthesis does not.
  axi_rd_engine_props #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (ID_W), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (MAX_BURST),
    .LEN_W (LEN_W), .ARID (ARID), .BEATS_W (BEATS_W)
  ) u_props (.*,
    .d_outs (outs), .d_wptr (wptr), .d_rptr (rptr), .d_rbeat (rbeat), .d_h_word (h_word), .d_h_len (h_len),
    .d_h_first (h_first), .d_h_last (h_last), .d_h_lo (h_lo), .d_h_hi (h_hi),
    .d_act (act), .d_cur (cur), .d_rem (rem), .d_c_first (c_first), .d_c_lo (c_lo), .d_c_hi (c_hi)
  );
`endif

endmodule
