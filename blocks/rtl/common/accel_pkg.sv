// accel_pkg: the design constants and descriptor types of the DLA format readers that are not registers.
//
// The register maps (offsets, fields, write masks, error bits, layout codes) are NOT here: their one source is
// blocks/rtl/regs/<block>.rdl (SystemRDL), and `make regs` generates their constants as the package
// accel_csr_pkg (blocks/rtl/common/accel_csr_pkg.sv; docs/registers.md). This package holds what the RTL needs beyond
// them: the validators' limits, the descriptor structs START latches and the pixel reader's format table.
// Limits and table entries are checked against the reference models through simulation (the validator and
// format tests compare every bit with dlaverif/models/), not by a second list.
//
// The file name sorts after accel_csr_pkg.sv (which it uses) and before every module file on purpose: a bare
// `verilator --lint-only blocks/rtl/*/*.sv` then parses both packages before the modules that import them.
`timescale 1ns/1ps
// Waiver, UNUSEDPARAM: this package is the one list of constants shared by every DLA reader; a block
// linted on its own uses only part of it by design.
/* verilator lint_off UNUSEDPARAM */
package accel_pkg;

  // ================================================================ cube reader (cube_reader.sv)
  localparam int CR_MAX_COUNT = 65535;   // COUNT_W/H/C/N: the validator refuses 0 and above (models.blocked.MAX_COUNT)

  // ---- the descriptor as programmed (raw register values; START latches one, cr_desc_validator checks it)
  typedef struct packed {
    logic [accel_csr_pkg::CR_CFG_LAYOUT_W-1:0] layout;
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

  // ================================================================ weight reader (weight_reader.sv)
  localparam int WR_MAX_GROUPS = 65535;  // GROUPS: the validator refuses 0 and above (models.weight_desc.MAX_GROUPS)

  // ---- the descriptor as programmed (raw register values; START latches one, wr_validator checks it)
  typedef struct packed {
    logic        compressed;
    logic [31:0] elem_bytes;
    logic [31:0] groups;
    logic [31:0] group_bytes;
    logic [31:0] last_group_bytes;
    logic [63:0] weight_base;    // {WEIGHT_BASE_HI, WEIGHT_BASE_LO}
    logic [31:0] weight_bytes;
    logic [63:0] wmb_base;       // {WMB_BASE_HI, WMB_BASE_LO}
    logic [31:0] wmb_bytes;
    logic [63:0] wgs_base;       // {WGS_BASE_HI, WGS_BASE_LO}
    logic [31:0] wgs_bytes;
  } weight_desc_t;

  // ================================================================ pixel reader (pixel_reader.sv)
  // NVDLA pitch-linear pixel input (seed Table 33, Equation 1; clarifications 2.1-2.3, 10): the 36 pixel
  // formats, one or two planes, the input converter. Reference model of the validator: dlaverif/models/pixel_desc.py.
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
