// regs_dut_ports.svh: the ports of every regs_dut (wrap_hand.sv, wrap_regblock.sv, wrap_etana.sv), the one interface
// tb_regs.sv drives whichever register block is measured (tests/bench/regblock_compare.py). Included inside the port
// list: `module regs_dut (`include "regs_dut_ports.svh");`
//   s_axil_*     the AXI4-Lite slave (dlaverif/hdl/props/axi_ports.svh)
//   ro_val       drives the hardware-written registers (STATUS = ro_val[2:0], ERROR = ro_val & 0x303FF,
//                counters = ro_val)
//   start        CTRL.START as the job control sees it
//   cfg_q, base_lo_q, stride_n_q   stored values as the hardware sees them
`include "axi_ports.svh"
  input  logic        clk,
  input  logic        rst,
  `AXIL_PORTS(s_axil_, input, output, 8),
  input  logic [31:0] ro_val,
  output logic        start,
  output logic [31:0] cfg_q,
  output logic [31:0] base_lo_q,
  output logic [31:0] stride_n_q
