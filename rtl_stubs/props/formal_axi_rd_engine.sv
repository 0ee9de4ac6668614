// formal_axi_rd_engine: formal top of the read engine: axi_rd_engine with every input free, its AXI4 read
// master interface checked by axi4_read_master_props (slave side assumed legal) and its client side by
// axi_rd_engine_contract. Reset in the first cycle; after that rst is free too (reset at any time).
// Reduced parameters (tb/flow/formal.py sets them per proof): the properties are parametric.
`timescale 1ns/1ps
module formal_axi_rd_engine #(
  parameter int ADDR_W          = 16,
  parameter int DATA_W          = 64,
  parameter int MAX_OUTSTANDING = 2,
  parameter int MAX_BURST       = 4,
  parameter int LEN_W           = ADDR_W + 1
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              cmd_valid,
  input  logic [ADDR_W-1:0] cmd_addr,
  input  logic [LEN_W-1:0]  cmd_len,
  input  logic              stop,
  input  logic              rd_ready,
  input  logic              m_axi_arready,
  input  logic [3:0]        m_axi_rid,
  input  logic [DATA_W-1:0] m_axi_rdata,
  input  logic [1:0]        m_axi_rresp,
  input  logic              m_axi_rlast,
  input  logic              m_axi_rvalid
);
  localparam int LB = $clog2(DATA_W / 8);

  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume (rst);
  end

  logic              cmd_ready, busy, r_beat;
  logic [3:0]        m_axi_arid;
  logic [ADDR_W-1:0] m_axi_araddr;
  logic [7:0]        m_axi_arlen;
  logic [2:0]        m_axi_arsize, m_axi_arprot;
  logic [1:0]        m_axi_arburst, rd_resp;
  logic              m_axi_arlock, m_axi_arvalid, m_axi_rready;
  logic [3:0]        m_axi_arcache;
  logic              rd_valid, rd_first, rd_last;
  logic [DATA_W-1:0] rd_data;
  logic [ADDR_W-1:0] rd_addr;
  logic [LB-1:0]     rd_lo, rd_hi;

  axi_rd_engine #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (4), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (MAX_BURST),
    .LEN_W (LEN_W)
  ) dut (
    .clk, .rst, .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .stop, .busy,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock, .m_axi_arcache,
    .m_axi_arprot, .m_axi_arvalid, .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast,
    .m_axi_rvalid, .m_axi_rready,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi, .r_beat
  );

  logic [7:0]        n_flight, n_acc, head_len, head_beat;
  logic              ar_new, halted;
  logic [ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (ADDR_W), .DATA_W (DATA_W), .ID_W (4), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (MAX_BURST)
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
