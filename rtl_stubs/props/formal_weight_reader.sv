// formal_weight_reader: formal top of the weight reader's bus interfaces: weight_reader (reduced parameters) with
// every input free; AXI4-Lite slave (axil_slave_props: map 0x00..0x6C, SLVERR above, CTRL reads 0), AXI4 read
// master (axi4_read_master_props: slave side assumed legal; the error halt is not checked here: the weight
// reader's beat queues put a data-dependent delay between an error beat and the stop) and AXI4-Stream source
// (axis_source_props: stability; TLAST ends every kernel group, so no once-per-job check).
`timescale 1ns/1ps
module formal_weight_reader #(
  parameter int AXI_DATA_W      = 64,
  parameter int AXI_ADDR_W      = 16,
  parameter int MAX_OUTSTANDING = 2,
  parameter int DATA_DEPTH      = 8
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [7:0]            s_axil_awaddr,
  input  logic [2:0]            s_axil_awprot,
  input  logic                  s_axil_awvalid,
  input  logic [31:0]           s_axil_wdata,
  input  logic [3:0]            s_axil_wstrb,
  input  logic                  s_axil_wvalid,
  input  logic                  s_axil_bready,
  input  logic [7:0]            s_axil_araddr,
  input  logic [2:0]            s_axil_arprot,
  input  logic                  s_axil_arvalid,
  input  logic                  s_axil_rready,
  input  logic                  m_axi_arready,
  input  logic [3:0]            m_axi_rid,
  input  logic [AXI_DATA_W-1:0] m_axi_rdata,
  input  logic [1:0]            m_axi_rresp,
  input  logic                  m_axi_rlast,
  input  logic                  m_axi_rvalid,
  input  logic                  m_axis_tready
);

  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume (rst);
  end

  logic                        s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
  logic [1:0]                  s_axil_bresp, s_axil_rresp;
  logic [31:0]                 s_axil_rdata;
  logic [3:0]                  m_axi_arid, m_axi_arcache;
  logic [AXI_ADDR_W-1:0]       m_axi_araddr;
  logic [7:0]                  m_axi_arlen;
  logic [2:0]                  m_axi_arsize, m_axi_arprot;
  logic [1:0]                  m_axi_arburst;
  logic                        m_axi_arlock, m_axi_arvalid, m_axi_rready;
  logic [AXI_DATA_W-1:0] m_axis_tdata;
  logic [AXI_DATA_W/8-1:0]   m_axis_tkeep;
  logic                        m_axis_tlast, m_axis_tvalid, irq;
  logic [16-1:0]                 m_axis_tuser;

  weight_reader #(.AXI_DATA_W (AXI_DATA_W), .AXI_ADDR_W (AXI_ADDR_W), .AXI_ID_W (4),
                  .MAX_OUTSTANDING (MAX_OUTSTANDING), .DATA_DEPTH (DATA_DEPTH), .OUT_DATA_W (AXI_DATA_W)) dut (
    .clk, .rst,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready,
    .s_axil_wdata, .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready,
    .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arprot, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock, .m_axi_arcache,
    .m_axi_arprot, .m_axi_arvalid, .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast,
    .m_axi_rvalid, .m_axi_rready,
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready,
    .irq
  );

  axil_slave_props #(.ADDR_W (8), .MAPPED (64'(accel_csr_pkg::WR_REGS_MAPPED)), .CTRL_CHECK (1'b1),
                     .CTRL_OFS (accel_csr_pkg::REG_CTRL)) axil (
    .clk, .rst,
    .awaddr (s_axil_awaddr), .awprot (s_axil_awprot), .awvalid (s_axil_awvalid), .awready (s_axil_awready),
    .wdata (s_axil_wdata), .wstrb (s_axil_wstrb), .wvalid (s_axil_wvalid), .wready (s_axil_wready),
    .bresp (s_axil_bresp), .bvalid (s_axil_bvalid), .bready (s_axil_bready),
    .araddr (s_axil_araddr), .arprot (s_axil_arprot), .arvalid (s_axil_arvalid), .arready (s_axil_arready),
    .rdata (s_axil_rdata), .rresp (s_axil_rresp), .rvalid (s_axil_rvalid), .rready (s_axil_rready)
  );

  logic [7:0]            n_flight, n_acc, head_len, head_beat;
  logic                  ar_new, halted;
  logic [AXI_ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (AXI_ADDR_W), .DATA_W (AXI_DATA_W), .ID_W (4), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (256),
    .ERR_HALT (1'b0), .ERR_LAT (1)
  ) bus (
    .clk, .rst, .stop (1'b0), .job_done (irq),
    .arid (m_axi_arid), .araddr (m_axi_araddr), .arlen (m_axi_arlen), .arsize (m_axi_arsize),
    .arburst (m_axi_arburst), .arlock (m_axi_arlock), .arcache (m_axi_arcache), .arprot (m_axi_arprot),
    .arvalid (m_axi_arvalid), .arready (m_axi_arready), .rid (m_axi_rid), .rdata (m_axi_rdata),
    .rresp (m_axi_rresp), .rlast (m_axi_rlast), .rvalid (m_axi_rvalid), .rready (m_axi_rready),
    .n_flight, .n_acc, .ar_new, .head_addr, .head_len, .head_beat, .halted
  );

  axis_source_props #(.DATA_W (AXI_DATA_W), .USER_W (16), .TLAST_ONCE (1'b0)) axis (
    .clk, .rst, .job_done (irq),
    .tdata (m_axis_tdata), .tkeep (m_axis_tkeep), .tlast (m_axis_tlast), .tuser (m_axis_tuser),
    .tvalid (m_axis_tvalid), .tready (m_axis_tready)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{n_flight, n_acc, ar_new, head_len, head_beat, head_addr, halted};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
