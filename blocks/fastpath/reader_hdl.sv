// reader_hdl: testbench wrapper of the fast path (MEM=hdl) for every reader: one of cube_reader, weight_reader
// and pixel_reader (parameter READER) with an HDL-side AXI4 read memory (hdl_axi_mem.sv) on m_axi and an
// HDL-side output capture (hdl_stream_capture.sv) on m_axis, so that cocotb works per job (dlaverif/fastpath/harness.py), not
// per cycle. The three readers have the same ports (only the m_axis widths differ), so the reader is instantiated
// with implicit port connections and each generate branch declares its own TUSER. Never part of blocks/rtl/.
//
// Parameters: READER (0 cube_reader, 1 weight_reader, 2 pixel_reader); the bus widths; MAX_ATOM_BYTES (cube
// reader) and OUT_DATA_W (weight reader) give the output width; every other parameter of the reader keeps its
// default, so the fast path simulates the RTL the default path builds.
//
// Ports: clk, rst, the reader's AXI4-Lite slave s_axil_* and irq (driven by the usual CSR agent), and the
// testbench controls:
//   tb_load  toggle: memory and capture read hdl_cfg.bin (and hdl_mem.bin) on the next rising edge
//   tb_dump  toggle: memory and capture write their logs (hdl_ar/r/od/om.bin and the count files)
//   tb_inflight  R beats accepted on AR and not yet returned; tb_data_w / tb_addr_w the AXI widths
// tb_cycle counts rising edges from time 0: the cycle numbers of the logs are those of
// tb/agents (sim time // period with the clock starting low).
`timescale 1ns / 1ps
`include "axi_ports.svh"   // blocks/rtl/common/, on the include path of the readers' lists
module reader_hdl #(
  parameter int READER          = 0,
  parameter int AXI_DATA_W      = 256,     // the pixel reader's bus is 256 bits (it has no such parameter)
  parameter int AXI_ADDR_W      = 40,
  parameter int AXI_ID_W        = 4,
  parameter int MAX_ATOM_BYTES  = 128,     // cube reader
  parameter int OUT_DATA_W      = AXI_DATA_W,   // weight reader
  parameter int MEM_WORDS       = (1 << 24) / (AXI_DATA_W / 8),   // 16 MiB of memory
  parameter int OUT_DEPTH       = 1 << 18
) (
  output logic        clk,
  input  logic        rst,
  `AXIL_PORTS(s_axil_, input, output, 8),
  output logic        irq,
  input  logic        tb_load,
  input  logic        tb_dump,
  output logic [31:0] tb_inflight,
  output logic [39:0] tb_cycle,
  output logic [15:0] tb_data_w,
  output logic [7:0]  tb_addr_w
);
  localparam int OUT_BYTES = READER == 0 ? MAX_ATOM_BYTES : READER == 1 ? OUT_DATA_W / 8 : 32;

  assign tb_data_w = 16'(AXI_DATA_W);
  assign tb_addr_w = 8'(AXI_ADDR_W);
  logic [AXI_ID_W-1:0]    m_axi_arid, m_axi_rid;
  logic [AXI_ADDR_W-1:0]  m_axi_araddr;
  logic [7:0]             m_axi_arlen;
  logic [2:0]             m_axi_arsize, m_axi_arprot;
  logic [1:0]             m_axi_arburst, m_axi_rresp;
  logic                   m_axi_arlock, m_axi_arvalid, m_axi_arready, m_axi_rlast, m_axi_rvalid, m_axi_rready;
  logic [3:0]             m_axi_arcache;
  logic [AXI_DATA_W-1:0]  m_axi_rdata;
  logic [OUT_BYTES*8-1:0] m_axis_tdata;
  logic [OUT_BYTES-1:0]   m_axis_tkeep;
  logic                   m_axis_tlast, m_axis_tvalid, m_axis_tready;
  logic [63:0]            cap_tuser;     // the reader's TUSER, zero-extended for the capture

  // the clock is generated here, not by cocotb: a cocotb Clock costs a GPI timer callback per edge, which
  // on Verilator was most of the simulator's time on this path (profiled)
  initial clk = 1'b0;
  always #5 clk = ~clk;

  initial tb_cycle = 40'd0;
  always @(posedge clk) tb_cycle <= tb_cycle + 40'd1;

  // The AXI4-Lite slave's outputs toward cocotb, copied at the falling edge. With the clock generated here, the
  // simulation by Verilator calls cocotb back on RisingEdge(clk) after the edge's nonblocking updates (Icarus, like a
  // cocotb-driven clock, before them), so cocotbext-axi's AxiLiteMaster read the slave's post-edge READY/VALID/
  // RDATA and its handshakes ran a cycle late: it kept ARVALID/AWVALID up after a handshake and changed the
  // address before READY. The AXI4-Lite assumptions of blocks/rtl/props/ (checked in every simulation) caught it.
  // The copy holds, at every rising edge and after it, the values the slave drove before that edge: what the
  // master must sample, on both simulators; and a VALID rises between edges, where cocotbext-axi's sinks expect
  // it (they wake on RisingEdge(valid), then sample at the next clock edge).
  logic        dut_awready, dut_wready, dut_bvalid, dut_arready, dut_rvalid;
  logic [1:0]  dut_bresp, dut_rresp;
  logic [31:0] dut_rdata;
  always @(negedge clk)
    {s_axil_awready, s_axil_wready, s_axil_bresp, s_axil_bvalid, s_axil_arready, s_axil_rdata, s_axil_rresp,
     s_axil_rvalid} <= {dut_awready, dut_wready, dut_bresp, dut_bvalid, dut_arready, dut_rdata, dut_rresp, dut_rvalid};
`define READER_HDL_SLAVE_OUTS .s_axil_awready (dut_awready), .s_axil_wready (dut_wready), .s_axil_bresp (dut_bresp), \
    .s_axil_bvalid (dut_bvalid), .s_axil_arready (dut_arready), .s_axil_rdata (dut_rdata), .s_axil_rresp (dut_rresp), \
    .s_axil_rvalid (dut_rvalid)

  generate
    if (READER == 0) begin : g_cube
      logic [63:0] m_axis_tuser;
      cube_reader #(.AXI_DATA_W(AXI_DATA_W), .AXI_ADDR_W(AXI_ADDR_W), .AXI_ID_W(AXI_ID_W),
                    .MAX_ATOM_BYTES(MAX_ATOM_BYTES)) dut (.*, `READER_HDL_SLAVE_OUTS);
      assign cap_tuser = m_axis_tuser;
    end else if (READER == 1) begin : g_weight
      logic [15:0] m_axis_tuser;
      weight_reader #(.AXI_DATA_W(AXI_DATA_W), .AXI_ADDR_W(AXI_ADDR_W), .AXI_ID_W(AXI_ID_W),
                      .OUT_DATA_W(OUT_DATA_W)) dut (.*, `READER_HDL_SLAVE_OUTS);
      assign cap_tuser = 64'(m_axis_tuser);
    end else begin : g_pixel
      logic [31:0] m_axis_tuser;
      pixel_reader #(.AXI_ADDR_W(AXI_ADDR_W), .AXI_ID_W(AXI_ID_W)) dut (.*, `READER_HDL_SLAVE_OUTS);
      assign cap_tuser = 64'(m_axis_tuser);
    end
  endgenerate

  hdl_axi_mem #(.DW(AXI_DATA_W), .AW(AXI_ADDR_W), .IDW(AXI_ID_W), .WORDS(MEM_WORDS)) u_mem (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .arid(m_axi_arid), .araddr(m_axi_araddr), .arlen(m_axi_arlen), .arsize(m_axi_arsize),
    .arburst(m_axi_arburst), .arvalid(m_axi_arvalid), .arready(m_axi_arready),
    .rid(m_axi_rid), .rdata(m_axi_rdata), .rresp(m_axi_rresp), .rlast(m_axi_rlast), .rvalid(m_axi_rvalid),
    .rready(m_axi_rready), .inflight(tb_inflight)
  );

  hdl_stream_capture #(.DATA_BYTES(OUT_BYTES), .DEPTH(OUT_DEPTH)) u_out (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .tdata(m_axis_tdata), .tkeep(m_axis_tkeep), .tlast(m_axis_tlast), .tuser(cap_tuser),
    .tvalid(m_axis_tvalid), .tready(m_axis_tready)
  );
endmodule
