// regs_dut around the hand-written blocks/rtl/common/axil_regs.sv with the cube reader's map, wired as in
// blocks/rtl/cube_reader/cube_reader.sv (constants written out here so that the bench does not depend on accel_pkg).
// The ports of every regs_dut: regs_dut_ports.svh.
`timescale 1ns/1ps
module regs_dut (
`include "regs_dut_ports.svh"
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
