// regs_dut around the hand-written rtl_stubs/common/axil_regs.sv with the cube reader's map, wired as in
// rtl_stubs/cube_reader/cube_reader.sv (constants written out here so that the bench does not depend on accel_pkg).
// Common ports of every regs_dut (tests/bench/regblock_compare.py): AXI4-Lite slave; ro_val drives the
// hardware-written registers (STATUS = ro_val[2:0], ERROR = ro_val & 0x303FF, counters = ro_val); start is
// CTRL.START as the job control sees it; cfg_q/base_lo_q/stride_n_q are stored values as the hardware sees them.
`timescale 1ns/1ps
`include "axi_ports.svh"   // rtl_stubs/common/
module regs_dut (
  input  logic        clk,
  input  logic        rst,
  `AXIL_PORTS(s_axil_, input, output, 8),
  input  logic [31:0] ro_val,
  output logic        start,
  output logic [31:0] cfg_q,
  output logic [31:0] base_lo_q,
  output logic [31:0] stride_n_q
);
  localparam int NR = 22;                                   // 0x00 .. 0x54
  localparam logic [NR*32-1:0] WMASK =
      ((NR*32)'(32'h0000_030F) << (32 * 3))                 // CFG: LAYOUT[3:0], FP16[8], NAN_TO_ZERO[9]
    | ((NR*32)'({11{32'hFFFF_FFFF}}) << (32 * 6));          // BASE_LO .. STRIDE_N
  logic [NR*32-1:0] regs_q, rd_val;
  logic [NR-1:0]    wr_pulse;
  logic [31:0]      wr_data;
  logic [3:0]       wr_strb;

  axil_regs #(.N_REGS(NR), .ADDR_W(8), .WMASK(WMASK), .RESET_VAL({NR*32{1'b0}}), .MAPPED({NR{1'b1}})) u_regs (
    .clk, .rst,
    `AXIL_CONNECT(s_axil_, s_axil_),
    .regs_q, .rd_val, .wr_pulse, .wr_data, .wr_strb
  );

  always_comb begin
    rd_val = regs_q;
    rd_val[32*0  +: 32] = 32'hC0BE_0001;                    // ID
    rd_val[32*1  +: 32] = {8'd40, 8'd8, 16'd256};           // PARAMS
    rd_val[32*4  +: 32] = {29'd0, ro_val[2:0]};             // STATUS
    rd_val[32*5  +: 32] = ro_val & 32'h0003_03FF;           // ERROR
    rd_val[32*17 +: 32] = ro_val;                           // ATOMS_SENT
    rd_val[32*18 +: 32] = ro_val;                           // NAN_COUNT
    rd_val[32*19 +: 32] = ro_val;                           // INF_COUNT
    rd_val[32*20 +: 32] = ro_val;                           // CYCLES
    rd_val[32*21 +: 32] = ro_val;                           // BEATS
  end

  assign start      = wr_pulse[2] && wr_strb[0] && wr_data[0];
  assign cfg_q      = regs_q[32*3  +: 32];
  assign base_lo_q  = regs_q[32*6  +: 32];
  assign stride_n_q = regs_q[32*16 +: 32];
endmodule
