// axi_rd_engine_props: the read engine's properties in one module with the engine's own port names, bound inside
// axi_rd_engine.sv under DLA_ASSERT (`axi_rd_engine_props #(...) u_props (.*);`): its AXI4 read master interface
// (axi4_read_master_props, `stop` its documented stop input) and its client contract (axi_rd_engine_contract).
// Every simulation of the engine (its own tests and every reader) checks them; `make formal` proves them with the
// engine as the top (reset assumed in the first cycle, every input free afterwards).
// Invariants over the engine's internals (named at the bind site, d_*), true of the design (BMC proves them with the
// rest) and checked in every simulation of the engine: its count of bursts in flight and its beat index are the
// bus properties' (n_flight, head_beat), its burst FIFO pointers agree with that count, and the head entry of its
// burst FIFO (the registered sdp_ram output) is the oldest burst in flight (the AR presented now when nothing older
// is left), and its command state is the contract's oldest command. With them the engine with one burst in flight
// is proved by 3-induction (axi_rd_engine_o1); with more it stays BMC only (docs/formal.md: the FIFO entry behind
// the head lives in the sdp_ram instance, out of reach of a property module without hierarchical references).
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
`include "axi_rd_engine_ports.svh"
module axi_rd_engine_props #(
  parameter int              ADDR_W          = 40,
  parameter int              DATA_W          = 256,
  parameter int              ID_W            = 4,
  parameter int              MAX_OUTSTANDING = 128,
  parameter int              MAX_BURST       = 256,
  parameter int              LEN_W           = ADDR_W + 1,
  parameter logic [ID_W-1:0] ARID            = '0,
  parameter int              BEATS_W         = ((ADDR_W > LEN_W) ? ADDR_W : LEN_W) - $clog2(DATA_W/8) + 2  // d_rem's
) (
  input  logic                        clk,
  input  logic                        rst,
  `RD_ENGINE_CMD_PORTS(input, input, ADDR_W, LEN_W),
  `AXI4_RD_PORTS(m_axi_, input, input, ID_W, ADDR_W, DATA_W),
  `RD_ENGINE_BEAT_PORTS(input, input, ADDR_W, DATA_W),
  // the engine's internal state (axi_rd_engine.sv)
  input  logic [$clog2(MAX_OUTSTANDING+1)-1:0]                          d_outs,   // bursts in flight
  input  logic [((MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1)-1:0] d_wptr,   // burst FIFO write pointer
  input  logic [((MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1)-1:0] d_rptr,   // and read pointer
  input  logic [7:0]                                                    d_rbeat,  // beat index in the head burst
  input  logic [ADDR_W-$clog2(DATA_W/8)-1:0]                            d_h_word, // head entry: beat address >> LB
  input  logic [7:0]                                                    d_h_len,  // head entry: ARLEN
  input  logic                                                          d_h_first, // head entry: flags, lanes
  input  logic                                                          d_h_last,
  input  logic [$clog2(DATA_W/8)-1:0]                                   d_h_lo,
  input  logic [$clog2(DATA_W/8)-1:0]                                   d_h_hi,
  input  logic                                                          d_act,     // command state: bursts left
  input  logic [ADDR_W-1:0]                                             d_cur,     // next burst address
  input  logic [BEATS_W-1:0]                                            d_rem,     // beats left to issue
  input  logic                                                          d_c_first, // next burst is the first
  input  logic [$clog2(DATA_W/8)-1:0]                                   d_c_lo,
  input  logic [$clog2(DATA_W/8)-1:0]                                   d_c_hi
);

  `PROP_FORMAL_RESET
  `PROP_REPORTER

  logic [7:0]        n_flight, n_acc, head_len, head_beat;
  logic              hb_first, hb_last, nb_first, nb_last;
  logic [$clog2(DATA_W/8)-1:0] hb_lo, hb_hi, nb_lo, nb_hi, c_lo1, c_hi1;
  logic [1:0]        c_n;
  logic [ADDR_W-1:0] c_addr0, c_addr1;
  logic [((ADDR_W > LEN_W) ? ADDR_W : LEN_W):0] c_rem0, c_rem1;
  logic              c_first1, c_done0;
  logic              ar_new, halted;
  logic [ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (ID_W), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (MAX_BURST),
    .ARID (ARID)
  ) bus (
    .clk, .rst, .stop, .job_done (1'b0),
    `AXI4_RD_CONNECT(, m_axi_),
    .n_flight, .n_acc, .ar_new, .head_addr, .head_len, .head_beat, .halted
  );

  axi_rd_engine_contract #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (ID_W), .MAX_OUTSTANDING (MAX_OUTSTANDING), .LEN_W (LEN_W)
  ) client (
    .clk, .rst, .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .stop, .busy,
    `AXI4_RD_CONNECT(, m_axi_),
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi, .r_beat,
    .ar_new, .n_flight, .n_acc, .head_addr, .head_len, .head_beat,
    .hb_first, .hb_last, .hb_lo, .hb_hi, .nb_first, .nb_last, .nb_lo, .nb_hi,
    .c_n, .c_addr0, .c_addr1, .c_rem0, .c_rem1, .c_first1, .c_lo1, .c_hi1, .c_done0
  );

  // ---------------------------------------------------------------- invariants over the engine's internals
  localparam int LB    = $clog2(DATA_W / 8);
  localparam int RW    = ((ADDR_W > LEN_W) ? ADDR_W : LEN_W) + 2;   // beat counts, compared without loss
  logic [7:0]        n_old;                          // bursts in flight presented before this cycle
  logic [ADDR_W-1:0] o_addr;                         // the oldest burst in flight: address, ARLEN
  logic [7:0]        o_len;
  assign n_old  = n_flight - 8'(ar_new);
  assign o_addr = (n_old != 8'd0) ? head_addr : m_axi_araddr;
  assign o_len  = (n_old != 8'd0) ? head_len : m_axi_arlen;
  // the count in a 32-bit signal of its own: at MAX_OUTSTANDING = 2**k - 1 the counter's own range makes
  // `d_outs <= MAX_OUTSTANDING` a constant comparison, which Verilator's coverage builds refuse (CMPCONST)
  logic [31:0]       outs32;
  assign outs32 = 32'(d_outs);

  always @(posedge clk) begin
    if (!rst) begin
      `PROP_ASSERT("inv: outs = bursts in flight", 8'(d_outs) == n_flight)
      `PROP_ASSERT("inv: outs <= MAX_OUTSTANDING", outs32 <= MAX_OUTSTANDING)
      `PROP_ASSERT("inv: rbeat = the head's beat index", d_rbeat == head_beat)
      `PROP_ASSERT("inv: burst FIFO pointers in range",
                   32'(d_wptr) < MAX_OUTSTANDING && 32'(d_rptr) < MAX_OUTSTANDING)
      `PROP_ASSERT("inv: wptr = rptr + outs",
                   32'(d_wptr) == (32'(d_rptr) + 32'(d_outs)) % ((MAX_OUTSTANDING > 1) ? MAX_OUTSTANDING : 1))
      if (m_axi_arvalid) `PROP_ASSERT("inv: the AR presented is in flight", d_outs != '0)
      // the command state: the engine issues a cycle before the AR is seen (ar_new), so while a new AR is
      // presented the engine has already taken its beats off the oldest command
      if (!ar_new || c_n == 2'd0) begin
        `PROP_ASSERT("inv: a command in progress = the oldest command", d_act == (c_n != 2'd0) && c_n != 2'd2)
        if (d_act) `PROP_ASSERT("inv: command state = the oldest command's",
                                d_cur == c_addr0 && RW'(d_rem) == RW'(c_rem0) && d_c_first == nb_first &&
                                d_c_lo == nb_lo && d_c_hi == nb_hi)
      end else if (!c_done0) begin
        `PROP_ASSERT("inv: a command in progress after a burst = the oldest command", d_act && c_n == 2'd1)
        `PROP_ASSERT("inv: command state after a burst = the oldest command's",
                     d_cur == c_addr0 + (ADDR_W'(m_axi_arlen) + ADDR_W'(1) << LB) &&
                     RW'(d_rem) + RW'(m_axi_arlen) + RW'(1) == RW'(c_rem0) && !d_c_first &&
                     d_c_lo == nb_lo && d_c_hi == nb_hi)
      end else begin
        `PROP_ASSERT("inv: a command in progress after its last burst = the next command", d_act == (c_n == 2'd2))
        if (d_act) `PROP_ASSERT("inv: command state after its last burst = the next command's",
                                d_cur == c_addr1 && RW'(d_rem) == RW'(c_rem1) && d_c_first == c_first1 &&
                                d_c_lo == c_lo1 && d_c_hi == c_hi1)
      end
      if (d_outs != '0) begin
        `PROP_ASSERT("inv: head entry = the oldest burst in flight", {d_h_word, LB'(0)} == o_addr && d_h_len == o_len)
        `PROP_ASSERT("inv: head entry flags = the oldest burst's",
                     (n_old != 8'd0) ? (d_h_first == hb_first && d_h_last == hb_last && d_h_lo == hb_lo && d_h_hi == hb_hi)
                                     : (d_h_first == nb_first && d_h_last == nb_last && d_h_lo == nb_lo && d_h_hi == nb_hi))
      end
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = halted;
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
