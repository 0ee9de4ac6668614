// axi_rd_engine_props: the read engine's properties in one module with the engine's own port names, bound inside
// axi_rd_engine.sv under DLA_ASSERT (`axi_rd_engine_props #(...) u_props (.*);`): its AXI4 read master interface
// (axi4_read_master_props, `stop` its documented stop input) and its client contract (axi_rd_engine_contract).
// Every simulation of the engine (its own tests and every reader) checks them; `make formal` proves them with the
// engine as the top (reset assumed in the first cycle, every input free afterwards).
`timescale 1ns/1ps
`include "prop_macros.svh"
module axi_rd_engine_props #(
  parameter int              ADDR_W          = 40,
  parameter int              DATA_W          = 256,
  parameter int              ID_W            = 4,
  parameter int              MAX_OUTSTANDING = 128,
  parameter int              MAX_BURST       = 256,
  parameter int              LEN_W           = ADDR_W + 1,
  parameter logic [ID_W-1:0] ARID            = '0
) (
  input  logic                        clk,
  input  logic                        rst,
  input  logic                        cmd_valid,
  input  logic                        cmd_ready,
  input  logic [ADDR_W-1:0]           cmd_addr,
  input  logic [LEN_W-1:0]            cmd_len,
  input  logic                        stop,
  input  logic                        busy,
  input  logic [ID_W-1:0]             m_axi_arid,
  input  logic [ADDR_W-1:0]           m_axi_araddr,
  input  logic [7:0]                  m_axi_arlen,
  input  logic [2:0]                  m_axi_arsize,
  input  logic [1:0]                  m_axi_arburst,
  input  logic                        m_axi_arlock,
  input  logic [3:0]                  m_axi_arcache,
  input  logic [2:0]                  m_axi_arprot,
  input  logic                        m_axi_arvalid,
  input  logic                        m_axi_arready,
  input  logic [ID_W-1:0]             m_axi_rid,
  input  logic [DATA_W-1:0]           m_axi_rdata,
  input  logic [1:0]                  m_axi_rresp,
  input  logic                        m_axi_rlast,
  input  logic                        m_axi_rvalid,
  input  logic                        m_axi_rready,
  input  logic                        rd_valid,
  input  logic                        rd_ready,
  input  logic [DATA_W-1:0]           rd_data,
  input  logic [1:0]                  rd_resp,
  input  logic [ADDR_W-1:0]           rd_addr,
  input  logic                        rd_first,
  input  logic                        rd_last,
  input  logic [$clog2(DATA_W/8)-1:0] rd_lo,
  input  logic [$clog2(DATA_W/8)-1:0] rd_hi,
  input  logic                        r_beat
);

  `PROP_FORMAL_RESET

  logic [7:0]        n_flight, n_acc, head_len, head_beat;
  logic              ar_new, halted;
  logic [ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (ID_W), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (MAX_BURST),
    .ARID (ARID)
  ) bus (
    .clk, .rst, .stop, .job_done (1'b0),
    .arid (m_axi_arid), .araddr (m_axi_araddr), .arlen (m_axi_arlen), .arsize (m_axi_arsize),
    .arburst (m_axi_arburst), .arlock (m_axi_arlock), .arcache (m_axi_arcache), .arprot (m_axi_arprot),
    .arvalid (m_axi_arvalid), .arready (m_axi_arready), .rid (m_axi_rid), .rdata (m_axi_rdata),
    .rresp (m_axi_rresp), .rlast (m_axi_rlast), .rvalid (m_axi_rvalid), .rready (m_axi_rready),
    .n_flight, .n_acc, .ar_new, .head_addr, .head_len, .head_beat, .halted
  );

  axi_rd_engine_contract #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .MAX_OUTSTANDING (MAX_OUTSTANDING), .LEN_W (LEN_W)
  ) client (
    .clk, .rst, .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .stop, .busy,
    .araddr (m_axi_araddr), .arlen (m_axi_arlen), .arvalid (m_axi_arvalid), .arready (m_axi_arready),
    .rdata (m_axi_rdata), .rresp (m_axi_rresp), .rlast (m_axi_rlast), .rvalid (m_axi_rvalid),
    .rready (m_axi_rready),
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi, .r_beat,
    .ar_new, .n_flight, .n_acc, .head_addr, .head_len, .head_beat
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = halted;
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
