// axi_rd_engine_contract: the client-side contract of axi_rd_engine.sv (commands in, beats out), as its header
// documents it, checked against a shadow of the commands. Used beside axi4_read_master_props (which supplies the
// bus view: ar_new, bursts in flight, the head burst and its beat index) in the engine's formal top.
//
// Assumed (the client): a command has cmd_len >= 1 and ends inside the address space (cmd_addr + cmd_len <=
// 2**ADDR_W, what the readers' validators guarantee). cmd_valid, rd_ready and stop are otherwise free.
// Asserted (the engine):
//   * Every new AR belongs to an accepted command and continues it: ARADDR = the next beat address of the
//     oldest command with beats left, ARLEN + 1 <= its beats left; so the bursts cover exactly the bus beats
//     holding the command's bytes, in order, each beat once. At most one command waits behind the one issuing.
//   * An AR is issued every cycle while there is room: a command with beats left, no stop, the AR channel free
//     (or freed by ARREADY) and fewer than MAX_OUTSTANDING bursts in flight -> a new AR in the next cycle.
//   * cmd_ready: low under stop; high when no command has beats left and stop is low.
//   * busy = a command has beats left or a burst is in flight (so busy falls when nothing is in flight; after
//     reset it is low).
//   * Beats: rd_valid = RVALID && !stop, RREADY = (a burst in flight) && (stop || rd_ready), rd_data/rd_resp
//     = RDATA/RRESP, r_beat = the R handshake; rd_addr = the beat's address, rd_first/rd_last on the first/last
//     beat of a command, rd_lo/rd_hi = the command's first/last byte lane on those beats (0 / all ones on the
//     others).
//   * stop drops the current command: after a cycle with stop, the commands' remaining beats are forgotten.
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
`include "axi_rd_engine_ports.svh"
module axi_rd_engine_contract #(
  parameter int ADDR_W          = 16,
  parameter int DATA_W          = 64,
  parameter int ID_W            = 4,
  parameter int MAX_OUTSTANDING = 2,
  parameter int LEN_W           = ADDR_W + 1
) (
  input  logic                        clk,
  input  logic                        rst,

  `RD_ENGINE_CMD_PORTS(input, input, ADDR_W, LEN_W),
  `AXI4_RD_PORTS(, input, input, ID_W, ADDR_W, DATA_W),   // the engine's bus (its AR address and length, R)
  `RD_ENGINE_BEAT_PORTS(input, input, ADDR_W, DATA_W),

  // the bus view (axi4_read_master_props)
  input  logic                        ar_new,
  input  logic [7:0]                  n_flight,
  input  logic [7:0]                  n_acc,
  input  logic [ADDR_W-1:0]           head_addr,
  input  logic [7:0]                  head_len,
  input  logic [7:0]                  head_beat,
  // for axi_rd_engine_props' invariants: the flags of the oldest burst in flight (hb_*) and the flags a burst
  // presented now takes from the oldest command (nb_*)
  output logic                        hb_first,
  output logic                        hb_last,
  output logic [$clog2(DATA_W/8)-1:0] hb_lo,
  output logic [$clog2(DATA_W/8)-1:0] hb_hi,
  output logic                        nb_first,
  output logic                        nb_last,
  output logic [$clog2(DATA_W/8)-1:0] nb_lo,
  output logic [$clog2(DATA_W/8)-1:0] nb_hi,
  // and the command shadow: commands with beats left, the oldest two (address of the next beat, beats left)
  output logic [1:0]                  c_n,
  output logic [ADDR_W-1:0]           c_addr0,
  output logic [ADDR_W-1:0]           c_addr1,
  output logic [((ADDR_W > LEN_W) ? ADDR_W : LEN_W):0] c_rem0,
  output logic [((ADDR_W > LEN_W) ? ADDR_W : LEN_W):0] c_rem1,
  output logic                        c_first1,
  output logic [$clog2(DATA_W/8)-1:0] c_lo1,
  output logic [$clog2(DATA_W/8)-1:0] c_hi1,
  output logic                        c_done0   // a burst presented now ends the oldest command
);

  `PROP_REPORTER

  // the contract reads the bursts' addresses and lengths and the R beats; the other AR/R signals are the bus
  // properties' (axi4_read_master_props)
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bus;
  assign unused_bus = ^{arid, arsize, arburst, arlock, arcache, arprot, rid};
  /* verilator lint_on UNUSEDSIGNAL */

  localparam int BW    = DATA_W / 8;
  localparam int LB    = $clog2(BW);
  localparam int E_W   = ((ADDR_W > LEN_W) ? ADDR_W : LEN_W) + 1;
  localparam int DEPTH = MAX_OUTSTANDING + 1;
  localparam int PW    = $clog2(DEPTH);

  logic p_valid, p_rst;
  initial p_valid = 1'b0;
  always @(posedge clk) begin
    p_valid <= 1'b1;
    p_rst   <= rst;
  end

  // ---------------------------------------------------------------- client assumptions
  logic [E_W-1:0] c_end;
  logic [E_W-1:0] c_beats;
  assign c_end   = E_W'(cmd_addr) + E_W'(cmd_len) - E_W'(1);
  assign c_beats = (c_end >> LB) - E_W'(cmd_addr >> LB) + E_W'(1);
  always @(posedge clk) begin
    if (cmd_valid) begin
      `PROP_ASSUME("command length >= 1", cmd_len != '0)
      `PROP_ASSUME("command inside the address space", E_W'(cmd_addr) + E_W'(cmd_len) <= (E_W'(1) << ADDR_W))
    end
  end

  // ---------------------------------------------------------------- command shadow: 2 entries (e0 = oldest)
  logic [1:0]        n_cmd;
  // two named entries, not an unpacked array: with a 2-word array Icarus 11 did not re-evaluate the continuous
  // assignments reading word 0 (head_done, the c_*/nb_* outputs) after its nonblocking writes in the cube
  // reader's fast path (they stayed X, so every check built on them failed; docs/formal.md)
  logic [ADDR_W-1:0] e0_addr, e1_addr;
  logic [E_W-1:0]    e0_rem, e1_rem;
  logic              e0_first, e1_first;
  logic [LB-1:0]     e0_lo, e1_lo, e0_hi, e1_hi;
  logic              cmd_fire, head_done, work;
  logic [E_W-1:0]    blen;

  assign cmd_fire  = cmd_valid && cmd_ready;
  assign blen      = E_W'(arlen) + E_W'(1);
  assign head_done = ar_new && (n_cmd != 2'd0) && (blen == e0_rem);
  assign work      = (n_cmd == 2'd2) || (n_cmd == 2'd1 && !head_done);

  always @(posedge clk) begin
    if (rst) begin
      n_cmd <= '0;
    end else begin
      logic [1:0] n;
      n = n_cmd;
      if (ar_new && n_cmd != 2'd0) begin
        e0_addr  <= e0_addr + (ADDR_W'(blen) << LB);
        e0_rem   <= e0_rem - blen;
        e0_first <= 1'b0;
        if (head_done) begin                           // the oldest command is fully issued: shift
          e0_addr  <= e1_addr;
          e0_rem   <= e1_rem;
          e0_first <= e1_first;
          e0_lo    <= e1_lo;
          e0_hi    <= e1_hi;
          n = n - 2'd1;
        end
      end
      if (cmd_fire && n != 2'd2) begin
        if (n == 2'd0) begin
          e0_addr <= {cmd_addr[ADDR_W-1:LB], {LB{1'b0}}};
          e0_rem  <= c_beats;
          e0_first <= 1'b1;
          e0_lo   <= cmd_addr[LB-1:0];
          e0_hi   <= c_end[LB-1:0];
        end else begin
          e1_addr <= {cmd_addr[ADDR_W-1:LB], {LB{1'b0}}};
          e1_rem  <= c_beats;
          e1_first <= 1'b1;
          e1_lo   <= cmd_addr[LB-1:0];
          e1_hi   <= c_end[LB-1:0];
        end
        n = n + 2'd1;
      end
      if (stop) n = 2'd0;                              // stop drops the commands
      n_cmd <= n;
    end
  end

  // ---------------------------------------------------------------- per-burst flags, in flight (mirrors the bus queue)
  logic          b_first [DEPTH];
  logic          b_last  [DEPTH];
  logic [LB-1:0] b_lo    [DEPTH];
  logic [LB-1:0] b_hi    [DEPTH];
  logic [PW-1:0] b_wp, b_rp;

  function automatic logic [PW-1:0] inc(input logic [PW-1:0] p);
    inc = (p == PW'(DEPTH - 1)) ? '0 : p + PW'(1);
  endfunction

  always @(posedge clk) begin
    if (rst) begin
      b_wp <= '0;
      b_rp <= '0;
    end else begin
      if (ar_new) begin
        b_first[b_wp] <= nb_first;
        b_last[b_wp]  <= nb_last;
        b_lo[b_wp]    <= nb_lo;
        b_hi[b_wp]    <= nb_hi;
        b_wp          <= inc(b_wp);
      end
      if (rvalid && rready && rlast) b_rp <= inc(b_rp);
    end
  end

  // ---------------------------------------------------------------- the engine's obligations
  logic exp_issue;          // the previous cycle had work, room and a free AR channel: an AR must follow
  always @(posedge clk) begin
    exp_issue <= !rst && work && !stop && (!arvalid || arready) && (32'(n_flight) < MAX_OUTSTANDING);
  end

  assign c_n      = n_cmd;
  assign c_addr0  = e0_addr;
  assign c_addr1  = e1_addr;
  assign c_rem0   = e0_rem;
  assign c_rem1   = e1_rem;
  assign c_first1 = e1_first;
  assign c_lo1    = e1_lo;
  assign c_hi1    = e1_hi;
  assign c_done0  = head_done;
  assign hb_first = b_first[b_rp];
  assign hb_last  = b_last[b_rp];
  assign hb_lo    = b_lo[b_rp];
  assign hb_hi    = b_hi[b_rp];
  assign nb_first = e0_first;
  assign nb_last  = (blen == e0_rem);
  assign nb_lo    = e0_lo;
  assign nb_hi    = e0_hi;

  logic h_first, h_last;
  assign h_first = hb_first && (head_beat == 8'd0);
  assign h_last  = hb_last && (head_beat == head_len);

  always @(posedge clk) begin
    if (!rst) begin
      // invariants of this module's own bookkeeping (what k-induction needs of it)
      if (32'(n_flight - 8'(ar_new)) <= MAX_OUTSTANDING) begin
        `PROP_ASSERT("inv: burst flag queue pointers in range", 32'(b_wp) < DEPTH && 32'(b_rp) < DEPTH)
        `PROP_ASSERT("inv: burst flag queue occupancy = bursts presented before",
                     32'(b_wp) == (32'(b_rp) + 32'(n_flight - 8'(ar_new))) % DEPTH)
      end
      if (n_cmd != 2'd0) begin
        `PROP_ASSERT("inv: the oldest command has beats left", e0_rem != '0)
        `PROP_ASSERT("inv: the oldest command's next beat aligned, inside the address space",
                     e0_addr[LB-1:0] == '0 && E_W'(e0_addr >> LB) + e0_rem <= (E_W'(1) << (ADDR_W - LB)))
      end
      if (n_cmd == 2'd2) begin
        `PROP_ASSERT("inv: the waiting command has beats left", e1_rem != '0)
        `PROP_ASSERT("inv: the waiting command's first beat aligned, inside the address space",
                     e1_addr[LB-1:0] == '0 && E_W'(e1_addr >> LB) + e1_rem <= (E_W'(1) << (ADDR_W - LB)))
      end
      `PROP_ASSERT("inv: at most two commands", n_cmd != 2'd3)
      if (ar_new) begin
        `PROP_ASSERT("an AR only for an accepted command", n_cmd != 2'd0)
        `PROP_ASSERT("ARADDR continues the oldest command", araddr == e0_addr)
        `PROP_ASSERT("a burst within its command's beats", blen <= e0_rem)
      end
      if (cmd_fire && n_cmd == 2'd2) `PROP_ASSERT("one command waits at most", head_done)
      if (cmd_ready) `PROP_ASSERT("cmd_ready low under stop", !stop)
      if (!stop && !work) `PROP_ASSERT("cmd_ready when idle", cmd_ready)
      `PROP_ASSERT("busy = work left or bursts in flight", busy == (work || n_flight != 8'd0))
      if (p_valid && !p_rst && exp_issue) `PROP_ASSERT("an AR every cycle while there is room", ar_new)
      // beats
      `PROP_ASSERT("RREADY = in flight and (stop or rd_ready)", rready == ((n_flight != 8'd0) && (stop || rd_ready)))
      `PROP_ASSERT("rd_valid = RVALID and not stop", rd_valid == (rvalid && !stop))
      `PROP_ASSERT("r_beat = the R handshake", r_beat == (rvalid && rready))
      if (rvalid) `PROP_ASSERT("rd_data/rd_resp = RDATA/RRESP", rd_data == rdata && rd_resp == rresp)
      if (n_acc != 8'd0) begin
        `PROP_ASSERT("rd_addr = the beat's address", rd_addr == head_addr + (ADDR_W'(head_beat) << LB))
        `PROP_ASSERT("rd_first on a command's first beat", rd_first == h_first)
        `PROP_ASSERT("rd_last on a command's last beat", rd_last == h_last)
        `PROP_ASSERT("rd_lo = the first byte lane", rd_lo == (h_first ? hb_lo : '0))
        `PROP_ASSERT("rd_hi = the last byte lane", rd_hi == (h_last ? hb_hi : {LB{1'b1}}))
      end
    end
  end

endmodule
