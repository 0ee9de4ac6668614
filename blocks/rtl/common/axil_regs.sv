// axil_regs: AXI4-Lite slave register file, the register pattern shared by the DLA readers.
//
// Register map: N_REGS 32-bit registers at byte offsets 4*i (i = 0 .. N_REGS-1). The parent module
// gives each register its meaning through three parameters and two ports:
//   WMASK[32*i +: 32]      bits of register i that AXI writes may change (stored here, visible on regs_q);
//                          a register with WMASK 0 is read-only (writes answer OKAY and change nothing)
//   RESET_VAL[32*i +: 32]  reset value of the stored bits of register i
//   MAPPED[i]              register i exists; any other offset answers SLVERR (reads return 0)
//   rd_val[32*i +: 32]     value returned by a read of register i (the parent loops regs_q back for
//                          RW registers and drives status/counter values for RO ones)
//   wr_pulse[i]            one-cycle pulse when a write to register i completes, with wr_data/wr_strb
//                          (used for write-only command registers such as CTRL.START)
//
// Interface: AXI4-Lite slave, 32-bit data, ADDR_W-bit byte address (low 2 bits ignored), one write and
// one read transaction at a time (the address and data of a write may arrive in either order).
// BRESP/RRESP: OKAY (2'b00) for a mapped register, SLVERR (2'b10) otherwise. AWPROT/ARPROT are ignored.
`timescale 1ns/1ps
`include "axi_ports.svh"
module axil_regs #(
  parameter int                    N_REGS    = 4,
  parameter int                    ADDR_W    = 8,
  parameter logic [N_REGS*32-1:0]  WMASK     = '0,
  parameter logic [N_REGS*32-1:0]  RESET_VAL = '0,
  parameter logic [N_REGS-1:0]     MAPPED    = '1
) (
  input  logic                 clk,
  input  logic                 rst,            // synchronous, active high

  `AXIL_PORTS(s_axil_, input, output, ADDR_W),

  output logic [N_REGS*32-1:0] regs_q,
  input  logic [N_REGS*32-1:0] rd_val,
  output logic [N_REGS-1:0]    wr_pulse,
  output logic [31:0]          wr_data,
  output logic [3:0]           wr_strb
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("N_REGS"),    .VALUE (N_REGS),    .LO (1), .HI ((1 << ADDR_W) / 4)) u_contract_n_regs ();
  param_contract #(.NAME ("ADDR_W"),    .VALUE (ADDR_W),    .LO (3), .HI (16)) u_contract_addr_w ();

  localparam int IDX_W = ADDR_W - 2;

  // The protection attributes do not change the behaviour of this register file; the low two
  // address bits select a byte inside a register, and registers are always accessed as words.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{s_axil_awprot, s_axil_arprot, s_axil_awaddr[1:0], s_axil_araddr[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- write channel
  logic             aw_full, w_full;
  logic [IDX_W-1:0] aw_idx;
  logic [31:0]      w_data;
  logic [3:0]       w_strb;
  logic [31:0]      strb_bits;

  assign s_axil_awready = !aw_full && !s_axil_bvalid;
  assign s_axil_wready  = !w_full && !s_axil_bvalid;

  logic aw_mapped;
  always_comb begin
    for (int b = 0; b < 4; b++) strb_bits[8*b +: 8] = {8{w_strb[b]}};
    aw_mapped = 1'b0;
    for (int i = 0; i < N_REGS; i++) begin
      if (aw_idx == IDX_W'(i) && MAPPED[i]) aw_mapped = 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    wr_pulse <= '0;
    if (rst) begin
      aw_full       <= 1'b0;
      w_full        <= 1'b0;
      aw_idx        <= '0;
      w_data        <= '0;
      w_strb        <= '0;
      s_axil_bvalid <= 1'b0;
      s_axil_bresp  <= 2'b00;
      regs_q        <= RESET_VAL;
      wr_data       <= '0;
      wr_strb       <= '0;
    end else begin
      if (s_axil_awvalid && s_axil_awready) begin
        aw_full <= 1'b1;
        aw_idx  <= s_axil_awaddr[ADDR_W-1:2];
      end
      if (s_axil_wvalid && s_axil_wready) begin
        w_full <= 1'b1;
        w_data <= s_axil_wdata;
        w_strb <= s_axil_wstrb;
      end
      if (aw_full && w_full && !s_axil_bvalid) begin
        aw_full       <= 1'b0;
        w_full        <= 1'b0;
        s_axil_bvalid <= 1'b1;
        s_axil_bresp  <= aw_mapped ? 2'b00 : 2'b10;
        wr_data       <= w_data;
        wr_strb       <= w_strb;
        for (int i = 0; i < N_REGS; i++) begin
          if (aw_idx == IDX_W'(i) && MAPPED[i]) begin
            wr_pulse[i] <= 1'b1;
            regs_q[32*i +: 32] <= (regs_q[32*i +: 32] & ~(WMASK[32*i +: 32] & strb_bits))
                                | (w_data & WMASK[32*i +: 32] & strb_bits);
          end
        end
      end
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- read channel
  logic [IDX_W-1:0] ar_idx;
  logic [31:0]      rd_word;
  logic             ar_mapped;

  assign s_axil_arready = !s_axil_rvalid;
  assign ar_idx = s_axil_araddr[ADDR_W-1:2];

  always_comb begin
    rd_word   = '0;
    ar_mapped = 1'b0;
    for (int i = 0; i < N_REGS; i++) begin
      if (ar_idx == IDX_W'(i) && MAPPED[i]) begin
        rd_word   = rd_val[32*i +: 32];
        ar_mapped = 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      s_axil_rvalid <= 1'b0;
      s_axil_rdata  <= '0;
      s_axil_rresp  <= 2'b00;
    end else begin
      if (s_axil_arvalid && s_axil_arready) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata  <= rd_word;
        s_axil_rresp  <= ar_mapped ? 2'b00 : 2'b10;
      end else if (s_axil_rvalid && s_axil_rready) begin
        s_axil_rvalid <= 1'b0;
      end
    end
  end

`ifdef DLA_ASSERT
  // Assertions, not design (docs/formal.md): the slave-port properties and the invariants tying their shadow state
  // to this block's (they read the ports and four internal signals). Icarus 11 and Yosys 0.23 have no `bind`, so
  // the one binding is this instance; dlaverif/flow/runner.py and dlaverif/flow/formal.py define DLA_ASSERT, synthesis does not.
  axil_regs_props #(.N_REGS (N_REGS), .ADDR_W (ADDR_W), .MAPPED (MAPPED)) u_props (
    .clk, .rst,
    `AXIL_CONNECT(s_axil_, s_axil_),
    .aw_full, .w_full, .aw_idx, .aw_mapped
  );
`endif

endmodule
