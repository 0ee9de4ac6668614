// axi_rd_engine_ports.svh: the client side of the AXI4 read engine (axi_rd_engine.sv documents each signal),
// written once for the engine and the property modules that watch it (axi_rd_engine_props, axi_rd_engine_contract):
//
//   `RD_ENGINE_CMD_PORTS(CDIR, EDIR, ADDR_W, LEN_W)    cmd_valid, cmd_ready, cmd_addr, cmd_len, stop, busy
//   `RD_ENGINE_BEAT_PORTS(CDIR, EDIR, ADDR_W, DATA_W)  rd_valid .. rd_hi, r_beat
//
//   CDIR     the direction, in the declaring module, of what the CLIENT drives (cmd_valid, cmd_addr, stop, rd_ready)
//   EDIR     the direction of what the ENGINE drives (cmd_ready, busy, the beats)
//            the engine declares (input, output), a property module (input, input)
// Each group is a comma-separated list without a trailing comma (axi_ports.svh shows the use); this file is found
// through the include folder of blocks/rtl/common/common.f.
`ifndef AXI_RD_ENGINE_PORTS_SVH
`define AXI_RD_ENGINE_PORTS_SVH

`define RD_ENGINE_CMD_PORTS(CDIR, EDIR, ADDR_W, LEN_W) \
  CDIR logic                  cmd_valid, \
  EDIR logic                  cmd_ready, \
  CDIR logic [(ADDR_W)-1:0]   cmd_addr, \
  CDIR logic [(LEN_W)-1:0]    cmd_len, \
  CDIR logic                  stop, \
  EDIR logic                  busy

`define RD_ENGINE_BEAT_PORTS(CDIR, EDIR, ADDR_W, DATA_W) \
  EDIR logic                  rd_valid, \
  CDIR logic                  rd_ready, \
  EDIR logic [(DATA_W)-1:0]   rd_data, \
  EDIR logic [1:0]            rd_resp, \
  EDIR logic [(ADDR_W)-1:0]   rd_addr, \
  EDIR logic                  rd_first, \
  EDIR logic                  rd_last, \
  EDIR logic [$clog2((DATA_W)/8)-1:0] rd_lo, \
  EDIR logic [$clog2((DATA_W)/8)-1:0] rd_hi, \
  EDIR logic                  r_beat

`endif
