// pr_validator: the pixel reader's descriptor rules, one error bit each (accel_csr_pkg PR_ERR_*; reference model
// dlaverif/models/pixel_desc.py PixelDescriptor.errors(addr_bits = ADDR_W)). Combinational.
//
// Interface: d = the latched descriptor (pix_desc_t), fmt = pr_format(d.format); errors[PR_ERR_ADDR_OVERFLOW:0].
// Rules (bit: broken when):
//   0 format         the code is not 0..35
//   1 size           width or height outside 1..8192
//   2 x_offset       a known format and x_offset > 32/Bpp0 - 1 (Table 33)
//   3 precision      precision 3; an fp16 format to int8/int16 (Table 29); CVT_EN = 0 on an integer format
//                    whose component width differs from the output width
//   4..7 alignment   base0, stride0 (and for N444 base1, stride1) not multiples of 32 (Table 35)
//   8 stride_min0    stride0 < (x_offset + width)*Bpp0                         } only with a known format and
//   9 stride_min1    N444: stride1 < ((x_offset*Bpp1) mod 32) + width*Bpp1     } legal size and x offset
//   10 addr_overflow a plane's last byte read (to the end of the 32-byte word of its last pixel) lies at or
//                    above 2**ADDR_W
`timescale 1ns/1ps
module pr_validator
  import accel_csr_pkg::*;
  import accel_pkg::*;
#(
  parameter int ADDR_W = 40
) (
  input  pix_desc_t                   d,
  input  logic [PR_FMT_W-1:0]         fmt,
  output logic [PR_ERR_ADDR_OVERFLOW:0] errors
);

  logic        known, two, fp16, c8, size_ok, x_ok, geo_ok;
  logic [1:0]  bpp0_l, bpp1_l;
  logic [5:0]  xmax;
  logic [4:0]  off1;
  logic [31:0] need0, need1, rnd0, rnd1;
  logic [71:0] ext0, ext1, top0, top1, limit;

  // The converter fields (offset, scale, mean, sign, truncate) take part in no rule: pr_atom reads them.
  /* verilator lint_off UNUSEDSIGNAL */
  pix_desc_t unused_d;
  assign unused_d = d;
  /* verilator lint_on UNUSEDSIGNAL */

  // always @* rather than always_comb: Icarus 11 refuses the selects below in always_* ("sorry")
  always @* begin
    known   = fmt[PR_FMT_OK_BIT];
    two     = fmt[PR_FMT_TWO_BIT];
    fp16    = fmt[PR_FMT_FP16_BIT];
    c8      = fmt[PR_FMT_C8_BIT];
    bpp0_l  = fmt[PR_FMT_BPP0_LSB +: 2];
    bpp1_l  = {1'b0, fmt[PR_FMT_BPP1_BIT]} + 2'd1;
    xmax    = 6'((6'd32 >> bpp0_l) - 6'd1);
    size_ok = (d.width != 32'd0) && (d.width <= 32'(PR_MAX_DIM))
           && (d.height != 32'd0) && (d.height <= 32'(PR_MAX_DIM));
    x_ok    = !known || (d.x_offset <= 32'(xmax));
    geo_ok  = known && size_ok && x_ok;
    off1    = 5'(d.x_offset[4:0] << bpp1_l);
    need0   = (32'(d.x_offset[4:0]) + 32'(d.width[13:0])) << bpp0_l;
    need1   = 32'(off1) + (32'(d.width[13:0]) << bpp1_l);
    rnd0    = (need0 + 32'd31) & ~32'd31;     // to the end of the 32-byte word of the last pixel
    rnd1    = (need1 + 32'd31) & ~32'd31;
    ext0    = 72'(d.height[13:0] - 14'd1) * 72'(d.stride0) + 72'(rnd0);
    ext1    = 72'(d.height[13:0] - 14'd1) * 72'(d.stride1) + 72'(rnd1);
    top0    = 72'(d.base0) + ext0;
    top1    = 72'(d.base1) + ext1;
    limit   = 72'd1 << ADDR_W;

    errors = '0;
    errors[PR_ERR_FORMAT]        = !known;
    errors[PR_ERR_SIZE]          = !size_ok;
    errors[PR_ERR_X_OFFSET]      = !x_ok;
    errors[PR_ERR_PRECISION]     = (d.precision == 2'd3)
                                || (known && fp16 && d.precision != 2'd2)
                                || (known && !fp16 && !d.cvt_en && d.precision != (c8 ? 2'd0 : 2'd1));
    errors[PR_ERR_ALIGN_BASE0]   = d.base0[4:0] != 5'd0;
    errors[PR_ERR_ALIGN_STRIDE0] = d.stride0[4:0] != 5'd0;
    errors[PR_ERR_ALIGN_BASE1]   = known && two && d.base1[4:0] != 5'd0;
    errors[PR_ERR_ALIGN_STRIDE1] = known && two && d.stride1[4:0] != 5'd0;
    errors[PR_ERR_STRIDE_MIN0]   = geo_ok && d.stride0 < need0;
    errors[PR_ERR_STRIDE_MIN1]   = geo_ok && two && d.stride1 < need1;
    errors[PR_ERR_ADDR_OVERFLOW] = geo_ok && (top0 > limit || (two && top1 > limit));
  end

endmodule
