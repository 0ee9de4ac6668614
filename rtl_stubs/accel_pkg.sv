// accel_pkg: the one register-map source of the DLA format readers.
//
// The file name sorts before every module file on purpose: a bare `verilator --lint-only rtl_stubs/*.sv` then
// parses the package (and its descriptor types) before the modules that import it.
//
// Every register offset, field, write mask, error bit and descriptor type of every block is defined here,
// once. The RTL imports this package; the testbench parses its localparams (tb/regmap.py builds one map
// per block from them), and tests/sim/test_regmap.py checks the register comment at the top of each block
// file and the register table of each block's datasheet (docs/<block>.md) against it.
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
// linted on its own (cr_desc_validator, axi_rd_engine, axil_regs) uses only part of it by design.
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

  // ---- the descriptor as programmed (raw register values; START latches one, cr_desc_validator checks it)
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

  // ================================================================ PR_: pixel reader (pixel_reader.sv)
  // NVDLA pitch-linear pixel input (seed Table 33, Equation 1; clarifications 2.1-2.3, 10): the 36 pixel
  // formats, one or two planes, the input converter. Reference model of the validator: models/pixel_desc.py
  // PixelDescriptor.errors() (bit i = ERROR_RULES[i]).
  localparam logic [31:0] PR_ID = 32'h91C5_0001;

  // ---- registers of the block (the common ones above complete the map)
  localparam int PR_REG_FORMAT     = 'h0C;
  localparam int PR_REG_WIDTH      = 'h18;
  localparam int PR_REG_HEIGHT     = 'h1C;
  localparam int PR_REG_X_OFFSET   = 'h20;
  localparam int PR_REG_BASE0_LO   = 'h24;
  localparam int PR_REG_BASE0_HI   = 'h28;
  localparam int PR_REG_STRIDE0    = 'h2C;
  localparam int PR_REG_BASE1_LO   = 'h30;
  localparam int PR_REG_BASE1_HI   = 'h34;
  localparam int PR_REG_STRIDE1    = 'h38;
  localparam int PR_REG_CVT_CFG    = 'h3C;
  localparam int PR_REG_CVT_OFFSET = 'h40;
  localparam int PR_REG_CVT_SCALE  = 'h44;
  localparam int PR_REG_MEAN_0     = 'h48;
  localparam int PR_REG_MEAN_1     = 'h4C;
  localparam int PR_REG_PIXELS     = 'h50;
  localparam int PR_REG_LINES      = 'h54;
  localparam int PR_REG_BEATS      = 'h58;
  localparam int PR_REG_CYCLES     = 'h5C;
  localparam int PR_REG_SATURATED  = 'h60;

  // ---- fields
  localparam int PR_FORMAT_CODE_LSB         = 0;    // PIXEL_FORMAT, Table 33 order (models.nvdla.pixel.ENUM_ORDER)
  localparam int PR_FORMAT_CODE_W           = 6;
  localparam int PR_CVT_CFG_PRECISION_LSB   = 0;    // 0 int8, 1 int16, 2 fp16 (3: illegal)
  localparam int PR_CVT_CFG_PRECISION_W     = 2;
  localparam int PR_CVT_CFG_CVT_EN_BIT      = 4;
  localparam int PR_CVT_CFG_SIGN_BIT        = 5;    // PIXEL_SIGN_OVERRIDE: 0 zero-extend, 1 sign-extend
  localparam int PR_CVT_CFG_MEAN_EN_BIT     = 6;    // D_MEAN_FORMAT: per-channel MEAN_* instead of CVT_OFFSET
  localparam int PR_CVT_CFG_TRUNCATE_LSB    = 8;    // CVT_TRUNCATE, the right shift 0..63
  localparam int PR_CVT_CFG_TRUNCATE_W      = 6;
  localparam logic [31:0] PR_FORMAT_CODE_MASK = ((32'd1 << PR_FORMAT_CODE_W) - 32'd1) << PR_FORMAT_CODE_LSB;
  localparam logic [31:0] PR_CVT_CFG_PRECISION_MASK =
      ((32'd1 << PR_CVT_CFG_PRECISION_W) - 32'd1) << PR_CVT_CFG_PRECISION_LSB;
  localparam logic [31:0] PR_CVT_CFG_TRUNCATE_MASK =
      ((32'd1 << PR_CVT_CFG_TRUNCATE_W) - 32'd1) << PR_CVT_CFG_TRUNCATE_LSB;

  // ---- writable bits of the RW registers
  localparam logic [31:0] PR_WMASK_FORMAT     = PR_FORMAT_CODE_MASK;
  localparam logic [31:0] PR_WMASK_WIDTH      = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_HEIGHT     = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_X_OFFSET   = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_BASE0_LO   = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_BASE0_HI   = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_STRIDE0    = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_BASE1_LO   = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_BASE1_HI   = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_STRIDE1    = 32'hFFFF_FFFF;
  localparam logic [31:0] PR_WMASK_CVT_CFG    = PR_CVT_CFG_PRECISION_MASK | (32'd1 << PR_CVT_CFG_CVT_EN_BIT)
                                              | (32'd1 << PR_CVT_CFG_SIGN_BIT) | (32'd1 << PR_CVT_CFG_MEAN_EN_BIT)
                                              | PR_CVT_CFG_TRUNCATE_MASK;
  localparam logic [31:0] PR_WMASK_CVT_OFFSET = 32'h0000_FFFF;
  localparam logic [31:0] PR_WMASK_CVT_SCALE  = 32'h0000_FFFF;
  localparam logic [31:0] PR_WMASK_MEAN_0     = 32'hFFFF_FFFF;   // [15:0] RY, [31:16] GU
  localparam logic [31:0] PR_WMASK_MEAN_1     = 32'hFFFF_FFFF;   // [15:0] BV, [31:16] AX

  // ---- error bits (models/pixel_desc.py ERROR_RULES; bus errors from 16 up)
  localparam int PR_ERR_FORMAT        = 0;
  localparam int PR_ERR_SIZE          = 1;
  localparam int PR_ERR_X_OFFSET      = 2;
  localparam int PR_ERR_PRECISION     = 3;
  localparam int PR_ERR_ALIGN_BASE0   = 4;
  localparam int PR_ERR_ALIGN_STRIDE0 = 5;
  localparam int PR_ERR_ALIGN_BASE1   = 6;
  localparam int PR_ERR_ALIGN_STRIDE1 = 7;
  localparam int PR_ERR_STRIDE_MIN0   = 8;
  localparam int PR_ERR_STRIDE_MIN1   = 9;
  localparam int PR_ERR_ADDR_OVERFLOW = 10;
  localparam int PR_ERR_BUS_SLVERR    = 16;
  localparam int PR_ERR_BUS_DECERR    = 17;

  localparam int PR_MAX_DIM     = 8192;   // 13-bit WIDTH/HEIGHT fields (clarifications 10)
  localparam int PR_NUM_FORMATS = 36;     // Table 33

  // ---- the format table: one entry per PIXEL_FORMAT code, read by one generic unpacker.
  // Channel descriptor (9 bits, output channel c = R,G,B,A / Y,U,V,A):
  //   [8] plane (0/1), [7:2] lsb of the component in the little-endian pixel word of that plane,
  //   [1:0] width code: 0 8-bit, 1 16-bit container, 2 packed 10-bit field (value = field << 6),
  //                     3 packed 2-bit alpha (value = a << 14)            (clarifications 2.1)
  localparam int PR_WC_8  = 0;
  localparam int PR_WC_16 = 1;
  localparam int PR_WC_10 = 2;
  localparam int PR_WC_2  = 3;
  localparam int PR_CH_W        = 9;
  // Entry (PR_FMT_W bits): [35:0] channels 0..3 (9 bits each), [37:36] channels-1, [39:38] log2 bytes per
  // pixel of plane 0, [40] log2(bytes per pixel of plane 1) - 1, [41] two planes (N444), [42] fp16 components,
  // [43] 8-bit components (int8 pipeline), [44] a known code.
  localparam int PR_FMT_NCH_LSB  = 36;
  localparam int PR_FMT_BPP0_LSB = 38;
  localparam int PR_FMT_BPP1_BIT = 40;
  localparam int PR_FMT_TWO_BIT  = 41;
  localparam int PR_FMT_FP16_BIT = 42;
  localparam int PR_FMT_C8_BIT   = 43;
  localparam int PR_FMT_OK_BIT   = 44;
  localparam int PR_FMT_W        = 45;

  // one channel descriptor
  function automatic logic [8:0] pr_ch(input logic plane, input logic [5:0] lsb, input logic [1:0] wc);
    pr_ch = {plane, lsb, wc};
  endfunction

  // one format entry: channels (ch0 = R/Y ... ch3 = A/X), channel count - 1, log2 bpp0, log2 bpp1 - 1, flags
  function automatic logic [44:0] pr_entry(input logic [8:0] c0, input logic [8:0] c1, input logic [8:0] c2,
                                           input logic [8:0] c3, input logic [1:0] nch_m1, input logic [1:0] bpp0,
                                           input logic bpp1, input logic two, input logic fp16, input logic c8);
    pr_entry = {1'b1, c8, fp16, two, bpp1, bpp0, nch_m1, c3, c2, c1, c0};
  endfunction

  // PIXEL_FORMAT code -> format entry (an unknown code gives 0: bit PR_FMT_OK_BIT clear)
  function automatic logic [44:0] pr_format(input logic [5:0] code);
    logic [8:0] z;
    z = 9'd0;
    case (code)
      6'd0:  pr_format = pr_entry(pr_ch(0, 0, 0), z, z, z, 2'd0, 2'd0, 0, 0, 0, 1);              // T_R8
      6'd1, 6'd2, 6'd3, 6'd4:                                                                      // T_R10/12/16/16_I
             pr_format = pr_entry(pr_ch(0, 0, 1), z, z, z, 2'd0, 2'd1, 0, 0, 0, 0);
      6'd5:  pr_format = pr_entry(pr_ch(0, 0, 1), z, z, z, 2'd0, 2'd1, 0, 0, 1, 0);              // T_R16_F
      6'd6, 6'd7:                                                                                  // T_[AX]16B16G16R16
             pr_format = pr_entry(pr_ch(0, 0, 1), pr_ch(0, 16, 1), pr_ch(0, 32, 1), pr_ch(0, 48, 1),
                                  2'd3, 2'd3, 0, 0, 0, 0);
      6'd8:  pr_format = pr_entry(pr_ch(0, 0, 1), pr_ch(0, 16, 1), pr_ch(0, 32, 1), pr_ch(0, 48, 1),
                                  2'd3, 2'd3, 0, 0, 1, 0);                                         // T_A16B16G16R16_F
      6'd9:  pr_format = pr_entry(pr_ch(0, 32, 1), pr_ch(0, 16, 1), pr_ch(0, 0, 1), pr_ch(0, 48, 1),
                                  2'd3, 2'd3, 0, 0, 0, 0);                                         // T_A16Y16U16V16
      6'd10: pr_format = pr_entry(pr_ch(0, 16, 1), pr_ch(0, 32, 1), pr_ch(0, 48, 1), pr_ch(0, 0, 1),
                                  2'd3, 2'd3, 0, 0, 0, 0);                                         // T_V16U16Y16A16
      6'd11: pr_format = pr_entry(pr_ch(0, 32, 1), pr_ch(0, 16, 1), pr_ch(0, 0, 1), pr_ch(0, 48, 1),
                                  2'd3, 2'd3, 0, 0, 1, 0);                                         // T_A16Y16U16V16_F
      6'd12, 6'd16:                                                                                // T_[AX]8B8G8R8
             pr_format = pr_entry(pr_ch(0, 0, 0), pr_ch(0, 8, 0), pr_ch(0, 16, 0), pr_ch(0, 24, 0),
                                  2'd3, 2'd2, 0, 0, 0, 1);
      6'd13, 6'd17, 6'd26:                                                                         // T_[AX]8R8G8B8, T_A8Y8U8V8
             pr_format = pr_entry(pr_ch(0, 16, 0), pr_ch(0, 8, 0), pr_ch(0, 0, 0), pr_ch(0, 24, 0),
                                  2'd3, 2'd2, 0, 0, 0, 1);
      6'd14, 6'd18, 6'd27:                                                                         // T_B8G8R8[AX]8, T_V8U8Y8A8
             pr_format = pr_entry(pr_ch(0, 8, 0), pr_ch(0, 16, 0), pr_ch(0, 24, 0), pr_ch(0, 0, 0),
                                  2'd3, 2'd2, 0, 0, 0, 1);
      6'd15, 6'd19:                                                                                // T_R8G8B8[AX]8
             pr_format = pr_entry(pr_ch(0, 24, 0), pr_ch(0, 16, 0), pr_ch(0, 8, 0), pr_ch(0, 0, 0),
                                  2'd3, 2'd2, 0, 0, 0, 1);
      6'd20: pr_format = pr_entry(pr_ch(0, 0, 2), pr_ch(0, 10, 2), pr_ch(0, 20, 2), pr_ch(0, 30, 3),
                                  2'd3, 2'd2, 0, 0, 0, 0);                                         // T_A2B10G10R10
      6'd21, 6'd24:                                                                                // T_A2R10G10B10, T_A2Y10U10V10
             pr_format = pr_entry(pr_ch(0, 20, 2), pr_ch(0, 10, 2), pr_ch(0, 0, 2), pr_ch(0, 30, 3),
                                  2'd3, 2'd2, 0, 0, 0, 0);
      6'd22, 6'd25:                                                                                // T_B10G10R10A2, T_V10U10Y10A2
             pr_format = pr_entry(pr_ch(0, 2, 2), pr_ch(0, 12, 2), pr_ch(0, 22, 2), pr_ch(0, 0, 3),
                                  2'd3, 2'd2, 0, 0, 0, 0);
      6'd23: pr_format = pr_entry(pr_ch(0, 22, 2), pr_ch(0, 12, 2), pr_ch(0, 2, 2), pr_ch(0, 0, 3),
                                  2'd3, 2'd2, 0, 0, 0, 0);                                         // T_R10G10B10A2
      6'd28: pr_format = pr_entry(pr_ch(0, 0, 0), pr_ch(1, 8, 0), pr_ch(1, 0, 0), z,
                                  2'd2, 2'd0, 0, 1, 0, 1);                                         // T_Y8___U8V8_N444
      6'd29: pr_format = pr_entry(pr_ch(0, 0, 0), pr_ch(1, 0, 0), pr_ch(1, 8, 0), z,
                                  2'd2, 2'd0, 0, 1, 0, 1);                                         // T_Y8___V8U8_N444
      6'd30, 6'd32, 6'd34:                                                                         // T_Y1x___U1xV1x_N444
             pr_format = pr_entry(pr_ch(0, 0, 1), pr_ch(1, 16, 1), pr_ch(1, 0, 1), z,
                                  2'd2, 2'd1, 1, 1, 0, 0);
      6'd31, 6'd33, 6'd35:                                                                         // T_Y1x___V1xU1x_N444
             pr_format = pr_entry(pr_ch(0, 0, 1), pr_ch(1, 0, 1), pr_ch(1, 16, 1), z,
                                  2'd2, 2'd1, 1, 1, 0, 0);
      default: pr_format = '0;
    endcase
  endfunction

  // ---- the descriptor as programmed (raw register values; START latches one, pr_validator checks it)
  typedef struct packed {
    logic [5:0]  format;
    logic [31:0] width;
    logic [31:0] height;
    logic [31:0] x_offset;
    logic [63:0] base0;          // {BASE0_HI, BASE0_LO}
    logic [31:0] stride0;
    logic [63:0] base1;          // {BASE1_HI, BASE1_LO}
    logic [31:0] stride1;
    logic [1:0]  precision;
    logic        cvt_en;
    logic        sign;
    logic        mean_en;
    logic [5:0]  truncate;
    logic [15:0] cvt_offset;
    logic [15:0] cvt_scale;
    logic [63:0] mean;           // {AX, BV, GU, RY}
  } pix_desc_t;

endpackage
/* verilator lint_on UNUSEDPARAM */
