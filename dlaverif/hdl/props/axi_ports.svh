// axi_ports.svh: the AXI port groups of blocks/rtl/, each written once: a module declares a group in its port list
// with the *_PORTS macro and wires it to an instance with the *_CONNECT macro (the signal names of ARM IHI 0022 and
// ARM IHI 0051 behind one prefix).
//
//   `AXIL_PORTS(P, MDIR, SDIR, ADDR_W)                   AXI4-Lite, 32-bit data: P awaddr .. P rready
//   `AXI4_RD_PORTS(P, MDIR, SDIR, ID_W, ADDR_W, DATA_W)  AXI4 read channels AR and R: P arid .. P rready
//   `AXIS_PORTS(P, MDIR, SDIR, DATA_W, USER_W)           AXI4-Stream, TKEEP of DATA_W/8 bits: P tdata .. P tready
//   `AXIL_CONNECT(P, S) / `AXI4_RD_CONNECT(P, S)         .<P>awaddr (<S>awaddr), ...: ports named with prefix P
//                                                        to signals named with prefix S
//
//   P, S     the names' prefix up to the channel letters (s_axil_, m_axi_), or empty (awaddr, arvalid, ...)
//   MDIR     the direction, in the declaring module, of what the MASTER (stream: the source) drives (AW, W, AR, the
//            B and R READY; TDATA .. TVALID)
//   SDIR     the direction of what the SLAVE (stream: the sink) drives (AWREADY, WREADY, B, ARREADY, R; TREADY)
//            a slave declares (input, output), a master (output, input), a property module that only watches
//            the bus (input, input)
// A group is a comma-separated list without a trailing comma: the port list writes the comma after it, e.g.
//
//   module axil_regs #(...) (
//     input logic clk,
//     `AXIL_PORTS(s_axil_, input, output, ADDR_W),
//     output logic [N_REGS*32-1:0] regs_q, ...
//
// Every consumer of blocks/rtl/ finds this file through the include folder of blocks/rtl/common/common.f (+incdir+).
`ifndef AXI_PORTS_SVH
`define AXI_PORTS_SVH

`define AXIL_PORTS(P, MDIR, SDIR, ADDR_W) \
  MDIR logic [(ADDR_W)-1:0] P``awaddr, \
  MDIR logic [2:0]          P``awprot, \
  MDIR logic                P``awvalid, \
  SDIR logic                P``awready, \
  MDIR logic [31:0]         P``wdata, \
  MDIR logic [3:0]          P``wstrb, \
  MDIR logic                P``wvalid, \
  SDIR logic                P``wready, \
  SDIR logic [1:0]          P``bresp, \
  SDIR logic                P``bvalid, \
  MDIR logic                P``bready, \
  MDIR logic [(ADDR_W)-1:0] P``araddr, \
  MDIR logic [2:0]          P``arprot, \
  MDIR logic                P``arvalid, \
  SDIR logic                P``arready, \
  SDIR logic [31:0]         P``rdata, \
  SDIR logic [1:0]          P``rresp, \
  SDIR logic                P``rvalid, \
  MDIR logic                P``rready

`define AXIL_CONNECT(P, S) \
  .P``awaddr (S``awaddr), .P``awprot (S``awprot), .P``awvalid (S``awvalid), .P``awready (S``awready), \
  .P``wdata (S``wdata), .P``wstrb (S``wstrb), .P``wvalid (S``wvalid), .P``wready (S``wready), \
  .P``bresp (S``bresp), .P``bvalid (S``bvalid), .P``bready (S``bready), \
  .P``araddr (S``araddr), .P``arprot (S``arprot), .P``arvalid (S``arvalid), .P``arready (S``arready), \
  .P``rdata (S``rdata), .P``rresp (S``rresp), .P``rvalid (S``rvalid), .P``rready (S``rready)

`define AXI4_RD_PORTS(P, MDIR, SDIR, ID_W, ADDR_W, DATA_W) \
  MDIR logic [(ID_W)-1:0]   P``arid, \
  MDIR logic [(ADDR_W)-1:0] P``araddr, \
  MDIR logic [7:0]          P``arlen, \
  MDIR logic [2:0]          P``arsize, \
  MDIR logic [1:0]          P``arburst, \
  MDIR logic                P``arlock, \
  MDIR logic [3:0]          P``arcache, \
  MDIR logic [2:0]          P``arprot, \
  MDIR logic                P``arvalid, \
  SDIR logic                P``arready, \
  SDIR logic [(ID_W)-1:0]   P``rid, \
  SDIR logic [(DATA_W)-1:0] P``rdata, \
  SDIR logic [1:0]          P``rresp, \
  SDIR logic                P``rlast, \
  SDIR logic                P``rvalid, \
  MDIR logic                P``rready

`define AXI4_RD_CONNECT(P, S) \
  .P``arid (S``arid), .P``araddr (S``araddr), .P``arlen (S``arlen), .P``arsize (S``arsize), \
  .P``arburst (S``arburst), .P``arlock (S``arlock), .P``arcache (S``arcache), .P``arprot (S``arprot), \
  .P``arvalid (S``arvalid), .P``arready (S``arready), .P``rid (S``rid), .P``rdata (S``rdata), \
  .P``rresp (S``rresp), .P``rlast (S``rlast), .P``rvalid (S``rvalid), .P``rready (S``rready)

`define AXIS_PORTS(P, MDIR, SDIR, DATA_W, USER_W) \
  MDIR logic [(DATA_W)-1:0]   P``tdata, \
  MDIR logic [(DATA_W)/8-1:0] P``tkeep, \
  MDIR logic                  P``tlast, \
  MDIR logic [(USER_W)-1:0]   P``tuser, \
  MDIR logic                  P``tvalid, \
  SDIR logic                  P``tready

`endif
