// pr_convert: one channel lane of the pixel reader's input converter (seed Equation 1 as the hardware does it,
// clarifications 2.3; reference model dlaverif/models/nvdla/pixel.py input_convert). Combinational.
//
// Interface:
//   value      the component as the converter sees it: an 8-bit component in [7:0] (c8 = 1), or a 16-bit
//              value (16-bit container, packed 10-bit field << 6, 2-bit alpha << 14, or fp16 bits)
//   c8, fp16   the format's component class: 8-bit integer, 16-bit integer, or fp16
//   cvt_en, sign, offset, scale, truncate, precision   the job's converter registers (offset = CVT_OFFSET, or
//              this channel's MEAN_* when the mean is enabled: the parent picks it)
//   out        the converted element: int8 in [7:0] ([15:8] = 0), int16 or fp16 in [15:0]
//   sat        the value was clamped (int17, int8/int16 range, or |x| >= 65520 to fp16 +-65504)
// Behaviour:
//   fp16 components: passed through unchanged (only fp16 output is legal: the validator's precision rule).
//   CVT_EN = 0: the raw bits are passed unchanged (the validator makes the output as wide as the component).
//   CVT_EN = 1: x17 = the component zero-extended (sign = 0) or sign-extended (sign = 1) to 17 bits,
//   t = (x17 - offset) * scale (signed 16-bit registers), y = round_half_away_from_zero(t / 2**truncate),
//   saturate to int17, then saturate to int8/int16, or convert to fp16 (round to nearest even; |y| >= 65520
//   gives +-65504).
`timescale 1ns/1ps
module pr_convert (
  input  logic [15:0] value,
  input  logic        c8,
  input  logic        fp16,
  input  logic        cvt_en,
  input  logic        sign,
  input  logic [15:0] offset,
  input  logic [15:0] scale,
  input  logic [5:0]  truncate,
  input  logic [1:0]  precision,
  output logic [15:0] out,
  output logic        sat
);

  logic signed [18:0] x17, diff;
  logic signed [34:0] t;
  logic        [63:0] mag, half, r;
  logic               neg;
  logic signed [17:0] y17;
  logic               sat17;
  logic        [16:0] m;            // |y17|, 0 .. 65536
  logic        [4:0]  lead;         // position of the leading one of m
  logic        [4:0]  sh;
  logic        [16:0] rem, rhalf;
  logic        [11:0] keep;
  // rounded[10] is the implicit leading one of the fp16 significand: not stored
  /* verilator lint_off UNUSEDSIGNAL */
  logic        [11:0] rounded;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        [15:0] f16;

  // always @* rather than always_comb: Icarus 11 refuses the selects below in always_* ("sorry")
  always @* begin
    // ---- widen to 17 bits
    if (c8) x17 = sign ? {{11{value[7]}}, value[7:0]} : {11'd0, value[7:0]};
    else    x17 = sign ? {{3{value[15]}}, value} : {3'd0, value};
    // ---- (x17 - offset) * scale, round half away from zero by 2**truncate
    diff = x17 - {{3{offset[15]}}, offset};
    t    = 35'(diff) * $signed({{19{scale[15]}}, scale});
    neg  = t[34];
    mag  = neg ? 64'(-t) : 64'(t);
    half = (truncate == 6'd0) ? 64'd0 : (64'd1 << (truncate - 6'd1));
    r    = (mag + half) >> truncate;
    // ---- saturate to int17
    sat17 = neg ? (r > 64'd65536) : (r > 64'd65535);
    if (neg) y17 = sat17 ? -18'sd65536 : -$signed({1'b0, r[16:0]});
    else     y17 = sat17 ?  18'sd65535 :  $signed({1'b0, r[16:0]});
    // ---- int17 -> fp16, round to nearest even, saturate to +-65504
    m    = neg ? 17'(-y17) : y17[16:0];
    lead = 5'd0;
    for (int b = 0; b < 17; b++) if (m[b]) lead = 5'(b);
    sh      = (lead > 5'd10) ? lead - 5'd10 : 5'd0;
    keep    = 12'(m >> sh);
    rem     = m & ((17'd1 << sh) - 17'd1);
    rhalf   = (sh == 5'd0) ? 17'd0 : (17'd1 << (sh - 5'd1));
    rounded = keep + 12'((sh != 5'd0) && ((rem > rhalf) || ((rem == rhalf) && keep[0])));
    if (m == 17'd0)            f16 = 16'h0000;
    else if (m >= 17'd65520)   f16 = {neg, 15'h7BFF};
    else if (lead <= 5'd10)    f16 = {neg, 5'(lead + 5'd15), 10'(m << (5'd10 - lead))};
    else if (rounded[11])      f16 = {neg, 5'(lead + 5'd16), 10'd0};
    else                       f16 = {neg, 5'(lead + 5'd15), rounded[9:0]};
    // ---- the output precision
    out = '0;
    sat = 1'b0;
    if (fp16 || !cvt_en) begin
      out = c8 ? {8'd0, value[7:0]} : value;
    end else begin
      case (precision)
        2'd0: begin
          if (y17 > 18'sd127)       begin out = 16'h007F; sat = 1'b1; end
          else if (y17 < -18'sd128) begin out = 16'h0080; sat = 1'b1; end
          else                            out = {8'd0, y17[7:0]};
        end
        2'd1: begin
          if (y17 > 18'sd32767)       begin out = 16'h7FFF; sat = 1'b1; end
          else if (y17 < -18'sd32768) begin out = 16'h8000; sat = 1'b1; end
          else                              out = y17[15:0];
        end
        default: begin
          out = f16;
          sat = (m >= 17'd65520);
        end
      endcase
      sat = sat || sat17;
    end
  end

endmodule
