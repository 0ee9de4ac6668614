// cube_reader_hdl: testbench wrapper of the fast path (MEM=hdl): the cube reader with an HDL-side AXI4 read
// memory (hdl_axi_mem.sv) on m_axi and an HDL-side output capture (hdl_stream_capture.sv) on m_axis, so that
// cocotb works per job (tb/hdl_mem.py), not per cycle. Never part of rtl_stubs/.
//
// Ports: clk, rst, the reader's AXI4-Lite slave s_axil_* and irq (driven by the usual CSR agent), and the
// testbench controls:
//   tb_load  toggle: memory and capture read hdl_cfg.bin (and hdl_mem.bin) on the next rising edge
//   tb_dump  toggle: memory and capture write their logs (hdl_ar/r/od/om.bin and the count files)
//   tb_inflight  R beats accepted on AR and not yet returned; tb_data_w / tb_addr_w the AXI widths
// tb_cycle counts rising edges from time 0: the cycle numbers of the logs are those of
// tb/agents (sim time // period with the clock starting low).
`timescale 1ns / 1ps
module cube_reader_hdl #(
  parameter int AXI_DATA_W      = 256,
  parameter int AXI_ADDR_W      = 40,
  parameter int AXI_ID_W        = 4,
  parameter int MAX_OUTSTANDING = 8,
  parameter int MAX_ATOM_BYTES  = 128,
  parameter int MEM_WORDS       = (1 << 24) / (AXI_DATA_W / 8),   // 16 MiB of memory
  parameter int OUT_DEPTH       = 1 << 18
) (
  output logic        clk,
  input  logic        rst,
  input  logic [7:0]  s_axil_awaddr,
  input  logic [2:0]  s_axil_awprot,
  input  logic        s_axil_awvalid,
  output logic        s_axil_awready,
  input  logic [31:0] s_axil_wdata,
  input  logic [3:0]  s_axil_wstrb,
  input  logic        s_axil_wvalid,
  output logic        s_axil_wready,
  output logic [1:0]  s_axil_bresp,
  output logic        s_axil_bvalid,
  input  logic        s_axil_bready,
  input  logic [7:0]  s_axil_araddr,
  input  logic [2:0]  s_axil_arprot,
  input  logic        s_axil_arvalid,
  output logic        s_axil_arready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp,
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  output logic        irq,
  input  logic        tb_load,
  input  logic        tb_dump,
  output logic [31:0] tb_inflight,
  output logic [39:0] tb_cycle,
  output logic [15:0] tb_data_w,
  output logic [7:0]  tb_addr_w
);
  assign tb_data_w = 16'(AXI_DATA_W);
  assign tb_addr_w = 8'(AXI_ADDR_W);
  logic [AXI_ID_W-1:0]         arid, rid;
  logic [AXI_ADDR_W-1:0]       araddr;
  logic [7:0]                  arlen;
  logic [2:0]                  arsize, arprot;
  logic [1:0]                  arburst, rresp;
  logic                        arlock, arvalid, arready, rlast, rvalid, rready;
  logic [3:0]                  arcache;
  logic [AXI_DATA_W-1:0]       rdata;
  logic [MAX_ATOM_BYTES*8-1:0] tdata;
  logic [MAX_ATOM_BYTES-1:0]   tkeep;
  logic                        tlast, tvalid, tready;
  logic [63:0]                 tuser;

  // the clock is generated here, not by cocotb: a cocotb Clock costs a GPI timer callback per edge, which
  // on Verilator was most of the simulator's time on this path (issue 12)
  initial clk = 1'b0;
  always #5 clk = ~clk;

  initial tb_cycle = 40'd0;
  always @(posedge clk) tb_cycle <= tb_cycle + 40'd1;

  cube_reader #(
    .AXI_DATA_W(AXI_DATA_W), .AXI_ADDR_W(AXI_ADDR_W), .AXI_ID_W(AXI_ID_W), .MAX_OUTSTANDING(MAX_OUTSTANDING),
    .MAX_ATOM_BYTES(MAX_ATOM_BYTES)
  ) dut (
    .clk, .rst,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid, .s_axil_bready, .s_axil_araddr,
    .s_axil_arprot, .s_axil_arvalid, .s_axil_arready, .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid,
    .s_axil_rready,
    .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
    .m_axi_arburst(arburst), .m_axi_arlock(arlock), .m_axi_arcache(arcache), .m_axi_arprot(arprot),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata),
    .m_axi_rresp(rresp), .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready),
    .m_axis_tdata(tdata), .m_axis_tkeep(tkeep), .m_axis_tlast(tlast), .m_axis_tuser(tuser),
    .m_axis_tvalid(tvalid), .m_axis_tready(tready),
    .irq
  );

  hdl_axi_mem #(.DW(AXI_DATA_W), .AW(AXI_ADDR_W), .IDW(AXI_ID_W), .WORDS(MEM_WORDS)) u_mem (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .arid, .araddr, .arlen, .arsize, .arburst, .arvalid, .arready,
    .rid, .rdata, .rresp, .rlast, .rvalid, .rready, .inflight(tb_inflight)
  );

  hdl_stream_capture #(.DATA_BYTES(MAX_ATOM_BYTES), .DEPTH(OUT_DEPTH)) u_out (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .tdata, .tkeep, .tlast, .tuser, .tvalid, .tready
  );
endmodule
