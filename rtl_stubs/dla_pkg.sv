// dla_pkg: shared constants of the DLA format readers.
//
// Single source of truth for register offsets, field positions and error bits. The testbench
// reads this file (tb/regmap.py parses the localparams below), so a change here reaches both.
//
// Cube reader register map (AXI4-Lite, 32-bit registers, byte offsets):
//   0x00 ID          RO  CUBE_READER_ID
//   0x04 PARAMS      RO  [15:0] AXI data width (bits), [23:16] max outstanding reads, [31:24] address width
//   0x08 CTRL        WO  [0] START: starts a job when idle (ignored while busy); reads as 0
//   0x0C CFG         RW  [3:0] LAYOUT (LAYOUT_*), [8] FP16 elements, [9] NAN_TO_ZERO flush enable
//   0x10 STATUS      RO  [0] BUSY, [1] DONE (end of last job, cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR       RO  error bits ERR_* of the last job (cleared by START)
//   0x18 BASE_LO     RW  base address [31:0]
//   0x1C BASE_HI     RW  base address [63:32]
//   0x20 ATOM_BYTES  RW  8, 16, 32, 64 or 128
//   0x24 ELEM_BYTES  RW  1, 2 or 4
//   0x28 COUNT_W     RW  atoms per line (1..65535)
//   0x2C COUNT_H     RW  lines (1..65535)
//   0x30 COUNT_C     RW  channel groups (surfaces) (1..65535)
//   0x34 COUNT_N     RW  batches (1..65535)
//   0x38 STRIDE_H    RW  line stride, bytes
//   0x3C STRIDE_C    RW  surface (channel-group) stride, bytes
//   0x40 STRIDE_N    RW  batch stride, bytes
//   0x44 ATOMS_SENT  RO  atoms delivered on the output stream by the last job
//   0x48 NAN_COUNT   RO  fp16 NaN elements read by the last job (NVDLA NaN counting)
//   0x4C INF_COUNT   RO  fp16 infinities read by the last job
//   0x50 CYCLES      RO  clock cycles from START to DONE of the last job
//   0x54 BEATS       RO  AXI read data beats accepted by the last job
`timescale 1ns/1ps
// Waiver, UNUSEDPARAM: this package is the one list of constants shared by every DLA reader; a block
// linted on its own (desc_validator, axi_rd_engine, axil_regs) uses only part of it by design.
/* verilator lint_off UNUSEDPARAM */
package dla_pkg;

  localparam logic [31:0] CUBE_READER_ID = 32'hC0BE_0001;

  // ---- register byte offsets
  localparam int REG_ID         = 'h00;
  localparam int REG_PARAMS     = 'h04;
  localparam int REG_CTRL       = 'h08;
  localparam int REG_CFG        = 'h0C;
  localparam int REG_STATUS     = 'h10;
  localparam int REG_ERROR      = 'h14;
  localparam int REG_BASE_LO    = 'h18;
  localparam int REG_BASE_HI    = 'h1C;
  localparam int REG_ATOM_BYTES = 'h20;
  localparam int REG_ELEM_BYTES = 'h24;
  localparam int REG_COUNT_W    = 'h28;
  localparam int REG_COUNT_H    = 'h2C;
  localparam int REG_COUNT_C    = 'h30;
  localparam int REG_COUNT_N    = 'h34;
  localparam int REG_STRIDE_H   = 'h38;
  localparam int REG_STRIDE_C   = 'h3C;
  localparam int REG_STRIDE_N   = 'h40;
  localparam int REG_ATOMS_SENT = 'h44;
  localparam int REG_NAN_COUNT  = 'h48;
  localparam int REG_INF_COUNT  = 'h4C;
  localparam int REG_CYCLES     = 'h50;
  localparam int REG_BEATS      = 'h54;

  // ---- field positions
  localparam int CTRL_START_BIT      = 0;
  localparam int CFG_LAYOUT_LSB      = 0;   // 4 bits
  localparam int CFG_FP16_BIT        = 8;
  localparam int CFG_NAN_TO_ZERO_BIT = 9;
  localparam int STATUS_BUSY_BIT     = 0;
  localparam int STATUS_DONE_BIT     = 1;
  localparam int STATUS_ERROR_BIT    = 2;

  // ---- layout codes (models/blocked.py Layout)
  localparam int LAYOUT_GENERIC       = 0;
  localparam int LAYOUT_NVDLA_FEATURE = 1;  // atom 32, elements 1/2 B, Table 35: 32-B start and strides
  localparam int LAYOUT_NVDLA_OPERAND = 2;  // atom 32/64/128, elements 1/2 B, 32-B start and strides
  localparam int LAYOUT_ONEDNN        = 3;  // any atom, elements 1/2/4 B
  localparam int LAYOUT_MACE          = 4;  // atom = 4 elements of 2/4 B

  // ---- error bits (models/blocked.py ERROR_RULES; bus errors from 16 up)
  localparam int ERR_LAYOUT         = 0;
  localparam int ERR_ATOM_SIZE      = 1;
  localparam int ERR_ELEM_SIZE      = 2;
  localparam int ERR_COUNT          = 3;
  localparam int ERR_ALIGN_BASE     = 4;
  localparam int ERR_ALIGN_STRIDE_H = 5;
  localparam int ERR_ALIGN_STRIDE_C = 6;
  localparam int ERR_ALIGN_STRIDE_N = 7;
  localparam int ERR_OVERLAP        = 8;
  localparam int ERR_ADDR_OVERFLOW  = 9;
  localparam int ERR_BUS_SLVERR     = 16;
  localparam int ERR_BUS_DECERR     = 17;

  localparam int MAX_COUNT = 65535;

endpackage
/* verilator lint_on UNUSEDPARAM */
