// formal_axil_regs: formal top of the AXI4-Lite register file alone: axil_regs with a hole in its map (MAPPED
// parameter) and every input free, checked by the property bundle it binds under DLA_ASSERT (axil_regs_props:
// axil_slave_props on its slave port, with the invariants that make it provable by k-induction). Reset in the
// first cycle, free afterwards.
`timescale 1ns/1ps
`include "axi_ports.svh"
module formal_axil_regs #(
  parameter int             N_REGS = 6,
  parameter int             ADDR_W = 5,
  parameter logic [N_REGS-1:0] MAPPED = 6'b101111
) (
  input  logic                 clk,
  input  logic                 rst,
  input  logic [ADDR_W-1:0]    s_axil_awaddr,
  input  logic [2:0]           s_axil_awprot,
  input  logic                 s_axil_awvalid,
  input  logic [31:0]          s_axil_wdata,
  input  logic [3:0]           s_axil_wstrb,
  input  logic                 s_axil_wvalid,
  input  logic                 s_axil_bready,
  input  logic [ADDR_W-1:0]    s_axil_araddr,
  input  logic [2:0]           s_axil_arprot,
  input  logic                 s_axil_arvalid,
  input  logic                 s_axil_rready,
  input  logic [N_REGS*32-1:0] rd_val
);
  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume (rst);
  end

  logic                 s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
  logic [1:0]           s_axil_bresp, s_axil_rresp;
  logic [31:0]          s_axil_rdata, wr_data;
  logic [3:0]           wr_strb;
  logic [N_REGS*32-1:0] regs_q;
  logic [N_REGS-1:0]    wr_pulse;

  axil_regs #(.N_REGS (N_REGS), .ADDR_W (ADDR_W), .WMASK ({N_REGS{32'hFFFF_FFFF}}), .RESET_VAL ('0),
              .MAPPED (MAPPED)) dut (
    .clk, .rst,
    `AXIL_CONNECT(s_axil_, s_axil_),
    .regs_q, .rd_val, .wr_pulse, .wr_data, .wr_strb
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  // (the slave port's outputs are checked by the bundle axil_regs binds, axil_regs_props)
  assign unused_ok = ^{regs_q, wr_pulse, wr_data, wr_strb, s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_bresp,
                       s_axil_arready, s_axil_rvalid, s_axil_rresp, s_axil_rdata};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
