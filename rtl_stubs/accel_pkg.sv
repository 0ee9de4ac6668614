// accel_pkg: the one register-map source of the DLA format readers.
//
// The file name sorts before every module file on purpose: a bare `verilator --lint-only rtl_stubs/*.sv` then
// parses the package (and its descriptor types) before the modules that import it.
//
// Every register offset, field, write mask, error bit and descriptor type of every block is defined here,
// once. The RTL imports this package; the testbench parses its localparams (tb/regmap.py builds one map
// per block from them), and tests/sim/test_regmap.py checks the register comment at the top of each block
// file and the README tables against it.
//
// Naming: names without a block prefix are the common register pattern; block names carry the block's
// prefix (CR_ = cube reader, WR_ = weight reader). A block <P> defines <P>_ID, <P>_REG_* (its own registers), <P>_WMASK_<REG>
// (the writable bits of each RW register; a register without a mask is read-only), <P>_<REG>_* fields
// (_BIT, _LSB/_W, _MASK) and <P>_ERR_* error bits.
//
// Common register pattern (AXI4-Lite, 32-bit registers, same byte offsets in every block):
//   0x00 ID      RO  <P>_ID
//   0x04 PARAMS  RO  [15:0] AXI data width (bits), [23:16] max outstanding reads, [31:24] address width
//   0x08 CTRL    WO  [0] START: starts a job when idle (ignored while busy); reads as 0
//   0x10 STATUS  RO  [0] BUSY, [1] DONE (end of last job, cleared by START), [2] ERROR (ERROR != 0)
//   0x14 ERROR   RO  error bits <P>_ERR_* of the last job (cleared by START)
// 0x0C and 0x18 upwards belong to the block (the cube reader's map is at the top of cube_reader.sv).
`timescale 1ns/1ps
// Waiver, UNUSEDPARAM: this package is the one list of constants shared by every DLA reader; a block
// linted on its own (desc_validator, axi_rd_engine, axil_regs) uses only part of it by design.
/* verilator lint_off UNUSEDPARAM */
package accel_pkg;

  // ================================================================ common register pattern
  localparam int REG_ID     = 'h00;
  localparam int REG_PARAMS = 'h04;
  localparam int REG_CTRL   = 'h08;
  localparam int REG_STATUS = 'h10;
  localparam int REG_ERROR  = 'h14;

  localparam int CTRL_START_BIT   = 0;
  localparam int STATUS_BUSY_BIT  = 0;
  localparam int STATUS_DONE_BIT  = 1;
  localparam int STATUS_ERROR_BIT = 2;

  // ================================================================ CR_: cube reader (cube_reader.sv)
  localparam logic [31:0] CR_ID = 32'hC0BE_0001;

  // ---- registers of the block (the common ones above complete the map)
  localparam int CR_REG_CFG        = 'h0C;
  localparam int CR_REG_BASE_LO    = 'h18;
  localparam int CR_REG_BASE_HI    = 'h1C;
  localparam int CR_REG_ATOM_BYTES = 'h20;
  localparam int CR_REG_ELEM_BYTES = 'h24;
  localparam int CR_REG_COUNT_W    = 'h28;
  localparam int CR_REG_COUNT_H    = 'h2C;
  localparam int CR_REG_COUNT_C    = 'h30;
  localparam int CR_REG_COUNT_N    = 'h34;
  localparam int CR_REG_STRIDE_H   = 'h38;
  localparam int CR_REG_STRIDE_C   = 'h3C;
  localparam int CR_REG_STRIDE_N   = 'h40;
  localparam int CR_REG_ATOMS_SENT = 'h44;
  localparam int CR_REG_NAN_COUNT  = 'h48;
  localparam int CR_REG_INF_COUNT  = 'h4C;
  localparam int CR_REG_CYCLES     = 'h50;
  localparam int CR_REG_BEATS      = 'h54;

  // ---- CFG fields
  localparam int CR_CFG_LAYOUT_LSB      = 0;
  localparam int CR_CFG_LAYOUT_W        = 4;
  localparam int CR_CFG_FP16_BIT        = 8;
  localparam int CR_CFG_NAN_TO_ZERO_BIT = 9;
  localparam logic [31:0] CR_CFG_LAYOUT_MASK = ((32'd1 << CR_CFG_LAYOUT_W) - 32'd1) << CR_CFG_LAYOUT_LSB;

  // ---- writable bits of the RW registers (derived from the fields; other registers are read-only)
  localparam logic [31:0] CR_WMASK_CFG      = CR_CFG_LAYOUT_MASK | (32'd1 << CR_CFG_FP16_BIT)
                                            | (32'd1 << CR_CFG_NAN_TO_ZERO_BIT);
  localparam logic [31:0] CR_WMASK_BASE_LO    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_BASE_HI    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_ATOM_BYTES = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_ELEM_BYTES = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_COUNT_W    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_COUNT_H    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_COUNT_C    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_COUNT_N    = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_STRIDE_H   = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_STRIDE_C   = 32'hFFFF_FFFF;
  localparam logic [31:0] CR_WMASK_STRIDE_N   = 32'hFFFF_FFFF;

  // ---- layout codes (models/blocked.py Layout)
  localparam int CR_LAYOUT_GENERIC       = 0;
  localparam int CR_LAYOUT_NVDLA_FEATURE = 1;  // atom 32, elements 1/2 B, Table 35: 32-B start and strides
  localparam int CR_LAYOUT_NVDLA_OPERAND = 2;  // atom 32/64/128, elements 1/2 B, 32-B start and strides
  localparam int CR_LAYOUT_ONEDNN        = 3;  // any atom, elements 1/2/4 B
  localparam int CR_LAYOUT_MACE          = 4;  // atom = 4 elements of 2/4 B

  // ---- error bits (models/blocked.py ERROR_RULES; bus errors from 16 up)
  localparam int CR_ERR_LAYOUT         = 0;
  localparam int CR_ERR_ATOM_SIZE      = 1;
  localparam int CR_ERR_ELEM_SIZE      = 2;
  localparam int CR_ERR_COUNT          = 3;
  localparam int CR_ERR_ALIGN_BASE     = 4;
  localparam int CR_ERR_ALIGN_STRIDE_H = 5;
  localparam int CR_ERR_ALIGN_STRIDE_C = 6;
  localparam int CR_ERR_ALIGN_STRIDE_N = 7;
  localparam int CR_ERR_OVERLAP        = 8;
  localparam int CR_ERR_ADDR_OVERFLOW  = 9;
  localparam int CR_ERR_BUS_SLVERR     = 16;
  localparam int CR_ERR_BUS_DECERR     = 17;

  localparam int CR_MAX_COUNT = 65535;

  // ---- the descriptor as programmed (raw register values; START latches one, desc_validator checks it)
  typedef struct packed {
    logic [CR_CFG_LAYOUT_W-1:0] layout;
    logic        fp16;
    logic        nan_to_zero;
    logic [63:0] base;          // {BASE_HI, BASE_LO}
    logic [31:0] atom_bytes;
    logic [31:0] elem_bytes;
    logic [31:0] count_w;
    logic [31:0] count_h;
    logic [31:0] count_c;
    logic [31:0] count_n;
    logic [31:0] stride_h;
    logic [31:0] stride_c;
    logic [31:0] stride_n;
  } cube_desc_t;

  // ================================================================ WR_: weight reader (weight_reader.sv)
  localparam logic [31:0] WR_ID = 32'h3E16_0001;

  // ---- registers of the block (the common ones above complete the map)
  localparam int WR_REG_CFG              = 'h0C;
  localparam int WR_REG_ELEM_BYTES       = 'h18;
  localparam int WR_REG_GROUPS           = 'h1C;
  localparam int WR_REG_GROUP_BYTES      = 'h20;
  localparam int WR_REG_LAST_GROUP_BYTES = 'h24;
  localparam int WR_REG_TOTAL_BYTES      = 'h28;
  localparam int WR_REG_WEIGHT_BASE_LO   = 'h2C;
  localparam int WR_REG_WEIGHT_BASE_HI   = 'h30;
  localparam int WR_REG_WEIGHT_BYTES     = 'h34;
  localparam int WR_REG_WMB_BASE_LO      = 'h38;
  localparam int WR_REG_WMB_BASE_HI      = 'h3C;
  localparam int WR_REG_WMB_BYTES        = 'h40;
  localparam int WR_REG_WGS_BASE_LO      = 'h44;
  localparam int WR_REG_WGS_BASE_HI      = 'h48;
  localparam int WR_REG_WGS_BYTES        = 'h4C;
  localparam int WR_REG_GROUPS_DONE      = 'h50;
  localparam int WR_REG_DENSE_OUT        = 'h54;
  localparam int WR_REG_COMP_BYTES       = 'h58;
  localparam int WR_REG_ZEROS            = 'h5C;
  localparam int WR_REG_CYCLES           = 'h60;
  localparam int WR_REG_BEATS            = 'h64;
  localparam int WR_REG_OUT_BEATS        = 'h68;
  localparam int WR_REG_FAULT            = 'h6C;

  // ---- CFG fields
  localparam int WR_CFG_COMPRESSED_BIT = 0;     // WEIGHT_FORMAT: 0 dense, 1 sparse-compressed
  // ---- FAULT fields: the surface of the first bus error (0 none, 1 weight, 2 WMB, 3 WGS)
  localparam int WR_FAULT_SURFACE_LSB = 0;
  localparam int WR_FAULT_SURFACE_W   = 2;
  localparam int WR_SURFACE_WEIGHT    = 1;
  localparam int WR_SURFACE_WMB       = 2;
  localparam int WR_SURFACE_WGS       = 3;

  // ---- writable bits of the RW registers
  localparam logic [31:0] WR_WMASK_CFG              = 32'd1 << WR_CFG_COMPRESSED_BIT;
  localparam logic [31:0] WR_WMASK_ELEM_BYTES       = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_GROUPS           = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_GROUP_BYTES      = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_LAST_GROUP_BYTES = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WEIGHT_BASE_LO   = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WEIGHT_BASE_HI   = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WEIGHT_BYTES     = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WMB_BASE_LO      = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WMB_BASE_HI      = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WMB_BYTES        = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WGS_BASE_LO      = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WGS_BASE_HI      = 32'hFFFF_FFFF;
  localparam logic [31:0] WR_WMASK_WGS_BYTES        = 32'hFFFF_FFFF;

  // ---- error bits: validator rules in the order of models/weight_desc.py ERROR_RULES, then run-time checks
  localparam int WR_ERR_ELEM_SIZE      = 0;
  localparam int WR_ERR_GROUPS         = 1;
  localparam int WR_ERR_GROUP_SIZE     = 2;
  localparam int WR_ERR_TOTAL_OVERFLOW = 3;
  localparam int WR_ERR_ALIGN_WEIGHT   = 4;
  localparam int WR_ERR_ALIGN_WMB      = 5;
  localparam int WR_ERR_ALIGN_WGS      = 6;
  localparam int WR_ERR_SIZE_WEIGHT    = 7;
  localparam int WR_ERR_SIZE_WMB       = 8;
  localparam int WR_ERR_SIZE_WGS       = 9;
  localparam int WR_ERR_ADDR_OVERFLOW  = 10;
  localparam int WR_ERR_WGS_MISMATCH   = 11;   // WGS[g] != popcount(WMB bits of group g) x element bytes
  localparam int WR_ERR_WEIGHT_OVERRUN = 12;   // the WGS sum runs past WEIGHT_BYTES (compressed surface)
  localparam int WR_ERR_BUS_SLVERR     = 16;
  localparam int WR_ERR_BUS_DECERR     = 17;

  localparam int WR_MAX_GROUPS = 65535;

endpackage
/* verilator lint_on UNUSEDPARAM */
