// axil_slave_props: AXI4-Lite SLAVE properties (ARM IHI 0022, AXI4-Lite: A3.2 handshake, B3 AXI4-Lite), written
// from the specification and the register pattern of axil_regs.sv / accel_pkg.sv. The master side is ASSUMED
// legal (AWVALID/WVALID/ARVALID held with stable payload until accepted; BREADY/RREADY free); the slave side is
// ASSERTED:
//   * BVALID/RVALID low after reset; once high they stay high with stable BRESP / RDATA+RRESP until ready.
//   * One response per request: a B only for an accepted AW and W pair, an R only for an accepted AR, at most one
//     request of each kind waiting for its response (the slave stalls the next one).
//   * RESP = SLVERR (2'b10) exactly for an offset whose word index is clear in MAPPED, OKAY otherwise; a read of
//     an unmapped offset returns 0.
//   * With CTRL_CHECK = 1: a read of the write-only CTRL register (byte offset CTRL_OFS) returns 0.
// Outputs for an invariant module (axil_regs_props: k-induction ties this shadow state to the register file's
// own): aw_pend/w_pend/ar_pend (a request accepted, its response not yet presented), aw_idx/ar_idx (its word
// index), b_new/r_new (a response presented for the first time this cycle).
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
module axil_slave_props #(
  parameter int                        ADDR_W     = 8,
  parameter logic [2**(ADDR_W-2)-1:0]  MAPPED     = '1,   // bit i: the register at byte offset 4*i exists
  parameter bit                        CTRL_CHECK = 1'b0,
  parameter int                        CTRL_OFS   = 8
) (
  input  logic              clk,
  input  logic              rst,
  `AXIL_PORTS(, input, input, ADDR_W),
  output logic              aw_pend,
  output logic              w_pend,
  output logic              ar_pend,
  output logic [ADDR_W-3:0] aw_idx,
  output logic [ADDR_W-3:0] ar_idx,
  output logic              b_new,
  output logic              r_new
);

  `PROP_REPORTER

  localparam int IW = ADDR_W - 2;

  logic              p_valid, p_rst;
  logic              p_awvalid, p_awready, p_wvalid, p_wready, p_bvalid, p_bready, p_arvalid, p_arready;
  logic              p_rvalid, p_rready;
  logic [ADDR_W-1:0] p_awaddr, p_araddr;
  logic [2:0]        p_awprot, p_arprot;
  logic [31:0]       p_wdata, p_rdata;
  logic [3:0]        p_wstrb;
  logic [1:0]        p_bresp, p_rresp;
  initial p_valid = 1'b0;

  always @(posedge clk) begin
    p_valid   <= 1'b1;
    p_rst     <= rst;
    p_awvalid <= awvalid;  p_awready <= awready;  p_awaddr <= awaddr;  p_awprot <= awprot;
    p_wvalid  <= wvalid;   p_wready  <= wready;   p_wdata  <= wdata;   p_wstrb  <= wstrb;
    p_bvalid  <= bvalid;   p_bready  <= bready;   p_bresp  <= bresp;
    p_arvalid <= arvalid;  p_arready <= arready;  p_araddr <= araddr;  p_arprot <= arprot;
    p_rvalid  <= rvalid;   p_rready  <= rready;   p_rdata  <= rdata;   p_rresp  <= rresp;
  end

  logic live;                       // a previous cycle out of reset exists
  assign live = p_valid && !p_rst && !rst;

  // ---------------------------------------------------------------- requests waiting for their response
  assign b_new = bvalid && !(p_valid && !p_rst && p_bvalid && !p_bready);
  assign r_new = rvalid && !(p_valid && !p_rst && p_rvalid && !p_rready);

  always @(posedge clk) begin
    if (rst) begin
      aw_pend <= 1'b0;
      w_pend  <= 1'b0;
      ar_pend <= 1'b0;
    end else begin
      if (b_new) begin
        aw_pend <= 1'b0;
        w_pend  <= 1'b0;
      end
      if (awvalid && awready) begin
        aw_pend <= 1'b1;
        aw_idx  <= awaddr[ADDR_W-1:2];
      end
      if (wvalid && wready) w_pend <= 1'b1;
      if (r_new) ar_pend <= 1'b0;
      if (arvalid && arready) begin
        ar_pend <= 1'b1;
        ar_idx  <= araddr[ADDR_W-1:2];
      end
    end
  end

  // ---------------------------------------------------------------- environment: a legal AXI4-Lite master
  always @(posedge clk) begin
    if (live) begin
      if (p_awvalid && !p_awready) `PROP_ASSUME("AWVALID held and AW stable until AWREADY", awvalid && awaddr == p_awaddr && awprot == p_awprot)
      if (p_wvalid && !p_wready)   `PROP_ASSUME("WVALID held and W stable until WREADY", wvalid && wdata == p_wdata && wstrb == p_wstrb)
      if (p_arvalid && !p_arready) `PROP_ASSUME("ARVALID held and AR stable until ARREADY", arvalid && araddr == p_araddr && arprot == p_arprot)
    end
  end

  // ---------------------------------------------------------------- the slave's obligations
  always @(posedge clk) begin
    if (p_valid && p_rst && !rst) `PROP_ASSERT("BVALID/RVALID low after reset", !bvalid && !rvalid)
    if (live) begin
      if (p_bvalid && !p_bready) `PROP_ASSERT("BVALID held and BRESP stable until BREADY", bvalid && bresp == p_bresp)
      if (p_rvalid && !p_rready) `PROP_ASSERT("RVALID held and RDATA/RRESP stable until RREADY", rvalid && rdata == p_rdata && rresp == p_rresp)
    end
    if (!rst) begin
      if (awvalid && awready) `PROP_ASSERT("one write at a time (AW)", !aw_pend || b_new)
      if (wvalid && wready)   `PROP_ASSERT("one write at a time (W)", !w_pend || b_new)
      if (arvalid && arready) `PROP_ASSERT("one read at a time", !ar_pend)
      if (b_new) begin
        `PROP_ASSERT("B only for an accepted AW and W", aw_pend && w_pend)
        `PROP_ASSERT("BRESP SLVERR exactly on unmapped offsets", bresp == (MAPPED[aw_idx] ? 2'b00 : 2'b10))
      end
      if (r_new) begin
        `PROP_ASSERT("R only for an accepted AR", ar_pend)
        `PROP_ASSERT("RRESP SLVERR exactly on unmapped offsets", rresp == (MAPPED[ar_idx] ? 2'b00 : 2'b10))
        if (!MAPPED[ar_idx]) `PROP_ASSERT("unmapped reads return 0", rdata == 32'd0)
        if (CTRL_CHECK && ar_idx == IW'(CTRL_OFS / 4)) `PROP_ASSERT("CTRL reads 0", rdata == 32'd0)
      end
    end
  end

endmodule
