// axi4_read_master_props: AXI4 read-channel properties of a read MASTER (AR and R channels), written from the
// AXI4 specification (ARM IHI 0022, sections A3.2 handshake, A3.4 burst rules) and from what a read engine
// documents (outstanding limit, alignment). Not part of the design (no synthesis list blocks/rtl/<block>/<block>.f names it); instantiated by the
// formal top wrappers of dlaverif/flow/formal.py beside the design, bound in simulation by the reader shell, and bound by
// port prefix into any other master with axi4_read_master_bind.svh.
//
// The master's outputs are ASSERTED; the slave's outputs are ASSUMED (the environment may choose any legal
// timing: ARREADY and RVALID free, RRESP free, RDATA free, RLAST on exactly the last beat of the burst at the
// head of the in-order queue, RID = ARID since the master uses one ID).
//
// What the master declares (parameters; the defaults are what this project's readers and engine document):
//   ALIGNED          1: ARADDR aligned to the bus width; 0: any byte address (A3.4.1 allows an unaligned start
//                    address for INCR and FIXED; the 4 KB rule then counts from the aligned start)
//   MAX_OUTSTANDING  the bursts the master may have in flight; 0: no limit declared (the module then tracks up
//                    to TRACK bursts, and says so when a master goes beyond what it tracks)
//   TRACK            the bursts tracked without a declared limit: any number (the table holds an address and a
//                    length per burst; the counts widen with it), e.g. 4096 for a master that issues a whole
//                    job's bursts ahead of its data
//   ID_W, ARID       the ID width of the master's ports and the one ARID it uses (its RID is assumed equal)
//   BURSTS           the burst types the master may issue, one bit per ARBURST code: bit 0 FIXED, bit 1 INCR,
//                    bit 2 WRAP (ARBURST = 2'b11 is reserved, never legal)
//   FULL_SIZE        1: ARSIZE = log2(DATA_W/8) (full width); 0: any ARSIZE up to the bus width
// Asserted (master):
//   * ARVALID, once high, stays high with stable ARADDR/ARLEN/ARSIZE/ARBURST/ARID/ARLOCK/ARCACHE/ARPROT until
//     ARREADY (A3.2.1); ARVALID low in the cycle after reset.
//   * ARBURST one of BURSTS, ARSIZE = log2(DATA_W/8) (FULL_SIZE) or at most it, ARID = ARID, ARLOCK = 0,
//     ARLEN + 1 <= MAX_BURST, ARADDR aligned to the bus width (ALIGNED), and an INCR burst stays inside one 4 KB
//     page (A3.4.1: ARADDR[11:0], made beat aligned when ALIGNED = 0, + (ARLEN+1) * DATA_W/8 <= 4096); a FIXED
//     burst has at most 16 beats, a WRAP burst 2, 4, 8 or 16 and an ARADDR aligned to ARSIZE (A3.4.1).
//   * At most MAX_OUTSTANDING bursts in flight (when it is not 0), counting from the cycle ARVALID is raised until
//     the RLAST handshake (what the design documents and the burst FIFO holds).
//   * stop / error: no new AR is presented in a cycle after one with `stop` high (an AR already presented stays,
//     as AXI requires); with DRAIN = 1, RREADY is high whenever `stop` is high and an accepted burst has beats
//     left (the in-flight beats are drained). With ERR_HALT = 1 an R beat with RRESP[1] = 1 (SLVERR/DECERR)
//     does the same: drain from ERR_LAT cycles after its handshake, no new AR from ERR_LAT + 1 cycles after it,
//     until `job_done` (the block's end of job) is seen.
// Outputs for other property modules: n_flight (bursts presented, this cycle's new AR included, and not
// completed; a count above 255 reads 255), n_acc (accepted, not completed, likewise), ar_new (a new AR presented
// this cycle), head_* (the oldest burst in flight: address, length, index
// of the next beat).
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
module axi4_read_master_props #(
  parameter int              ADDR_W          = 16,
  parameter int              DATA_W          = 64,
  parameter int              ID_W            = 4,
  parameter int              MAX_OUTSTANDING = 2,      // 0: no limit declared
  parameter int              MAX_BURST       = 256,
  parameter bit              ALIGNED         = 1'b1,   // ARADDR aligned to the bus width
  parameter logic [2:0]      BURSTS          = 3'b010, // allowed ARBURST codes: bit 0 FIXED, 1 INCR, 2 WRAP
  parameter bit              FULL_SIZE       = 1'b1,   // ARSIZE = the bus width (else at most it)
  parameter int              TRACK           = 64,     // bursts tracked when MAX_OUTSTANDING = 0 (any number)
  parameter logic [ID_W-1:0] ARID            = '0,
  parameter bit              ERR_HALT        = 1'b0,   // an error beat halts new reads until job_done
  parameter int              ERR_LAT         = 2,      // cycles from the error beat to the halt (>= 1)
  parameter bit              DRAIN           = 1'b1    // RREADY must be high while halted and beats are in flight
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              stop,       // the master's documented stop input (tie 0 when it has none)
  input  logic              job_done,   // clears the ERR_HALT state (tie 0 when unused)

  `AXI4_RD_PORTS(, input, input, ID_W, ADDR_W, DATA_W),

  output logic [7:0]        n_flight,
  output logic [7:0]        n_acc,
  output logic              ar_new,
  output logic [ADDR_W-1:0] head_addr,
  output logic [7:0]        head_len,
  output logic [7:0]        head_beat,
  output logic              halted
);

  `PROP_REPORTER

  localparam int BW    = DATA_W / 8;
  localparam int LB    = $clog2(BW);
  localparam int LIMIT = MAX_OUTSTANDING > 0 ? MAX_OUTSTANDING : TRACK;
  localparam int DEPTH = LIMIT + 1;                    // one more than legal: an overflow is seen, not lost
  localparam int PW    = $clog2(DEPTH);
  localparam int CW    = $clog2(DEPTH + 1) > 8 ? $clog2(DEPTH + 1) : 8;  // the burst counts' width

  // ---------------------------------------------------------------- previous-cycle values
  logic              p_valid;                          // a previous cycle exists (not the first)
  logic              p_rst, p_arvalid, p_arready, p_stop, p_rvalid, p_rready, p_rlast;
  logic [ADDR_W-1:0] p_araddr;
  logic [7:0]        p_arlen;
  logic [2:0]        p_arsize, p_arprot;
  logic [1:0]        p_arburst, p_rresp;
  logic [3:0]        p_arcache;
  logic              p_arlock;
  logic [ID_W-1:0]   p_arid, p_rid;
  logic [DATA_W-1:0] p_rdata;
  initial p_valid = 1'b0;

  always @(posedge clk) begin
    p_valid   <= 1'b1;
    p_rst     <= rst;
    p_arvalid <= arvalid;
    p_arready <= arready;
    p_stop    <= stop;
    p_araddr  <= araddr;
    p_arlen   <= arlen;
    p_arsize  <= arsize;
    p_arburst <= arburst;
    p_arlock  <= arlock;
    p_arcache <= arcache;
    p_arprot  <= arprot;
    p_arid    <= arid;
    p_rvalid  <= rvalid;
    p_rready  <= rready;
    p_rlast   <= rlast;
    p_rresp   <= rresp;
    p_rid     <= rid;
    p_rdata   <= rdata;
  end

  // ---------------------------------------------------------------- bursts in flight (in order, one ID)
  logic [ADDR_W-1:0] q_addr [DEPTH];
  logic [7:0]        q_len  [DEPTH];
  logic [PW-1:0]     q_wp, q_rp;
  logic [7:0]        beat;                             // index of the next beat of the head burst
  logic              r_fire, r_done;

  function automatic logic [PW-1:0] inc(input logic [PW-1:0] p);
    inc = (p == PW'(DEPTH - 1)) ? '0 : p + PW'(1);
  endfunction

  assign ar_new    = arvalid && !(p_valid && !p_rst && p_arvalid && !p_arready);
  logic [CW-1:0] n_reg;                                // bursts presented before this cycle, not completed
  logic [CW-1:0] n_flight_w, n_acc_w;                  // n_flight, n_acc at full width
  assign n_flight_w = n_reg + CW'(ar_new);
  assign n_acc_w    = n_flight_w - CW'(arvalid);
  assign r_fire    = rvalid && rready;
  assign r_done    = r_fire && (beat == q_len[q_rp]);
  assign head_addr = q_addr[q_rp];
  assign head_len  = q_len[q_rp];
  assign head_beat = beat;

  always @(posedge clk) begin
    if (rst) begin
      q_wp     <= '0;
      q_rp     <= '0;
      beat     <= '0;
      n_reg    <= '0;
    end else begin
      if (ar_new) begin
        q_addr[q_wp] <= araddr;
        q_len[q_wp]  <= arlen;
        q_wp         <= inc(q_wp);
      end
      if (r_fire) beat <= r_done ? 8'd0 : beat + 8'd1;
      if (r_done) q_rp <= inc(q_rp);
      n_reg    <= n_flight_w - CW'(r_done);
    end
  end

  // ---------------------------------------------------------------- halt state
  logic       err_seen;
  logic [3:0] err_age;
  always @(posedge clk) begin
    if (rst || job_done) begin
      err_seen <= 1'b0;
      err_age  <= '0;
    end else begin
      if (ERR_HALT && r_fire && rresp[1]) err_seen <= 1'b1;
      if (err_seen && err_age != 4'hF) err_age <= err_age + 4'd1;
    end
  end
  logic no_issue;                                      // no new AR may be presented in this cycle
  assign no_issue = (p_valid && !p_rst && p_stop) || (ERR_HALT && err_seen && 32'(err_age) >= ERR_LAT);
  assign halted   = stop || (ERR_HALT && err_seen && 32'(err_age) + 32'd1 >= 32'(ERR_LAT));

  // ---------------------------------------------------------------- environment: a legal AXI4 slave
  always @(posedge clk) begin
    if (!p_valid || p_rst) begin
      `PROP_ASSUME("RVALID low after reset", !rvalid)
    end else if (!rst) begin
      // R: valid held with stable payload until ready (a reset may withdraw it: AXI resets both sides at once)
      if (p_rvalid && !p_rready) begin
        `PROP_ASSUME("RVALID held until RREADY", rvalid)
        `PROP_ASSUME("R payload stable until RREADY", rdata == p_rdata && rresp == p_rresp && rlast == p_rlast && rid == p_rid)
      end
    end
    // data only for accepted bursts, in order, RLAST on the last beat, the one ID
    if (rvalid) begin
      `PROP_ASSUME("R beats only for accepted bursts", n_acc_w != '0)
      `PROP_ASSUME("RLAST exactly on a burst's last beat", rlast == (beat == q_len[q_rp]))
      `PROP_ASSUME("RID = ARID", rid == ARID)
    end
  end

  // ---------------------------------------------------------------- the master's obligations
  // the 4 KB rule counts from the burst's aligned start (an unaligned INCR start address only trims the first beat)
  localparam logic [11:0] page_mask = ALIGNED ? 12'hFFF : ~12'(BW - 1);
  // ARSIZE and the burst counts in 32-bit signals of their own: at a 1024-bit bus (ARSIZE 7) or 255 reads in
  // flight the fields' own ranges make the comparisons below constant, which Verilator's -Wall refuses (CMPCONST;
  // with the coverage flags of the regression's builds, which keep such a branch: n_reg32 was missing, found by the
  // nightly's random draw of 255 reads in flight)
  logic [31:0] arsize32, n_flight32, n_reg32;
  assign arsize32   = 32'(arsize);
  assign n_flight32 = 32'(n_flight_w);
  assign n_reg32    = 32'(n_reg);
  logic [31:0] n_acc32;
  assign n_acc32    = 32'(n_acc_w);
  assign n_flight   = n_flight32 > 255 ? 8'd255 : 8'(n_flight_w);  // the outputs tell at most 255
  assign n_acc      = n_acc32 > 255 ? 8'd255 : 8'(n_acc_w);
  always @(posedge clk) begin
    if (p_valid && p_rst && !rst) `PROP_ASSERT("ARVALID low after reset", !arvalid)
    if (p_valid && !p_rst && !rst) begin
      // AR handshake: valid held and payload stable until ready
      if (p_arvalid && !p_arready) begin
        `PROP_ASSERT("ARVALID held until ARREADY", arvalid)
        `PROP_ASSERT("AR stable until ARREADY", araddr == p_araddr && arlen == p_arlen && arsize == p_arsize && arburst == p_arburst &&
                     arid == p_arid && arlock == p_arlock && arcache == p_arcache && arprot == p_arprot)
      end
    end
    if (!rst && arvalid) begin
      if (BURSTS == 3'b010) `PROP_ASSERT("ARBURST INCR", arburst == 2'b01)
      else                  `PROP_ASSERT("ARBURST one of the declared BURSTS", arburst != 2'b11 && BURSTS[arburst])
      if (FULL_SIZE) `PROP_ASSERT("ARSIZE = bus width", arsize32 == LB)
      else           `PROP_ASSERT("ARSIZE at most the bus width", arsize32 <= LB)
      `PROP_ASSERT("ARID", arid == ARID)
      `PROP_ASSERT("ARLOCK normal", !arlock)
      `PROP_ASSERT("ARLEN + 1 <= MAX_BURST", 32'(arlen) + 1 <= MAX_BURST)
      if (ALIGNED) `PROP_ASSERT("ARADDR beat aligned", araddr[LB-1:0] == '0)
      if (arburst == 2'b01 || BURSTS == 3'b010)   // (INCR only: checked whatever ARBURST says, as always)
        `PROP_ASSERT("burst inside one 4 KB page", 32'(araddr[11:0] & page_mask) + (32'(arlen) + 1) * BW <= 4096)
      if (arburst == 2'b00) `PROP_ASSERT("FIXED burst of at most 16 beats", arlen <= 8'd15)
      if (arburst == 2'b10)
        `PROP_ASSERT("WRAP burst of 2, 4, 8 or 16 beats, ARADDR aligned to ARSIZE",
                     (arlen == 8'd1 || arlen == 8'd3 || arlen == 8'd7 || arlen == 8'd15) &&
                     (32'(araddr[LB-1:0]) & ((32'd1 << arsize) - 1)) == 0)
    end
    if (!rst) begin
      // invariants of this module's own bookkeeping (what k-induction needs of it; true whenever the bursts in
      // flight stay within MAX_OUTSTANDING, the assertion below)
      if (n_reg32 <= LIMIT) begin
        `PROP_ASSERT("inv: burst queue pointers in range", 32'(q_wp) < DEPTH && 32'(q_rp) < DEPTH)
        `PROP_ASSERT("inv: burst queue occupancy = bursts presented before", 32'(q_wp) == (32'(q_rp) + 32'(n_reg)) % DEPTH)
        if (n_reg == '0) `PROP_ASSERT("inv: no beat counted without a burst", beat == 8'd0)
        else               `PROP_ASSERT("inv: beat index inside the head burst", beat <= q_len[q_rp])
        if (arvalid && !ar_new)
          `PROP_ASSERT("inv: the AR held is the newest queued burst",
                       n_reg != '0 && araddr == q_addr[(32'(q_wp) + DEPTH - 1) % DEPTH] &&
                       arlen == q_len[(32'(q_wp) + DEPTH - 1) % DEPTH])
`ifdef FORMAL
        // every queued entry, for k-induction only: in simulation each entry was checked when its AR was presented
        // ("ARLEN + 1 <= MAX_BURST" below) and is not written again until popped, and this loop over the
        // MAX_OUTSTANDING + 1 entries in every cycle was a quarter of Icarus's time on the cube reader
        for (int i = 0; i < DEPTH; i++)
          if ((i + DEPTH - 32'(q_rp)) % DEPTH < 32'(n_reg))
            `PROP_ASSERT("inv: queued bursts of at most MAX_BURST beats", 32'(q_len[i]) + 1 <= MAX_BURST)
`endif
      end
      if (MAX_OUTSTANDING > 0) `PROP_ASSERT("at most MAX_OUTSTANDING bursts in flight", n_flight32 <= MAX_OUTSTANDING)
      else `PROP_ASSERT("at most TRACK bursts in flight (no limit declared: raise TRACK)", n_flight32 <= TRACK)
      if (no_issue) `PROP_ASSERT("no new AR after stop or an error beat", !ar_new)
      if (halted && DRAIN && n_acc_w != '0) `PROP_ASSERT("in-flight beats drained (RREADY) when stopped", rready)
      `PROP_COVER("a burst's last beat", r_done)
      `PROP_COVER("an error beat", r_fire && rresp[1])
    end
  end

endmodule
