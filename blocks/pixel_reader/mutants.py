"""The pixel reader's mutants (``make mutants``): pixel_reader.sv, its pr_*.sv parts and its format table
in accel_pkg.sv."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

PKG, PTOP, PCVT, PATOM, PUNP, PWALK, PVAL = (
    "accel_pkg.sv",
    "pixel_reader.sv",
    "pr_convert.sv",
    "pr_atom.sv",
    "pr_unpacker.sv",
    "pr_line_walker.sv",
    "pr_validator.sv",
)

MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "pr_component_order_swapped",
        "component order swapped in one format",
        "T_A2B10G10R10 (code 20): R and B fields exchanged in the format table",
        PKG,
        "6'd20: pr_format = pr_entry(pr_ch(0, 0, 2), pr_ch(0, 10, 2), pr_ch(0, 20, 2),",
        "6'd20: pr_format = pr_entry(pr_ch(0, 20, 2), pr_ch(0, 10, 2), pr_ch(0, 0, 2),",
    ),
    mutant(
        "pr_x_offset_in_bytes",
        "x offset counted in bytes instead of pixels",
        "the first ROI byte of plane 0 is X_OFFSET, not X_OFFSET*Bpp0",
        PTOP,
        "assign off0   = 5'(job.x_offset[4:0] << bpp0_l);",
        "assign off0   = job.x_offset[4:0];",
    ),
    mutant(
        "pr_rounding_truncates",
        "rounding replaced by truncation in the converter",
        "the shift drops the half: abs(t) >> truncate instead of round half away from zero",
        PCVT,
        "half = (truncate == 6'd0) ? 64'd0 : (64'd1 << (truncate - 6'd1));",
        "half = 64'd0;",
    ),
    mutant(
        "pr_int8_no_low_saturation",
        "saturation missing on one side",
        "int8 output: values below -128 wrap (low byte) instead of saturating",
        PCVT,
        "else if (y17 < -18'sd128) begin out = 16'h0080; sat = 1'b1; end",
        "/* MUTANT: no low clamp */",
    ),
    mutant(
        "pr_plane1_stride_from_plane0",
        "plane 1 line stride taken from plane 0",
        "the plane-1 line address advances by STRIDE0",
        PWALK,
        "a1 <= a1 + AXI_ADDR_W'(stride1);",
        "a1 <= a1 + AXI_ADDR_W'(stride0);",
    ),
    mutant(
        "pr_sign_override_ignored",
        "converter sign handling",
        "8-bit components are always zero-extended (PIXEL_SIGN_OVERRIDE ignored)",
        PCVT,
        "if (c8) x17 = sign ? {{11{value[7]}}, value[7:0]} : {11'd0, value[7:0]};",
        "if (c8) x17 = {11'd0, value[7:0]};",
    ),
    mutant(
        "pr_fp16_ties_round_up",
        "int -> fp16 rounding",
        "int -> fp16 rounds ties up instead of to even",
        PCVT,
        "((rem == rhalf) && keep[0])",
        "(rem == rhalf)",
    ),
    mutant(
        "pr_fp16_overflow_to_inf",
        "int -> fp16 saturation",
        "magnitudes >= 65520 become +-INF instead of +-65504",
        PCVT,
        "else if (m >= 17'd65520)   f16 = {neg, 15'h7BFF};",
        "else if (m >= 17'd65520)   f16 = {neg, 15'h7C00};",
    ),
    mutant(
        "pr_mean_ignored",
        "converter offset",
        "MEAN_EN has no effect: every channel uses CVT_OFFSET",
        PATOM,
        ".offset    (job.mean_en ? job.mean[16*c +: 16] : job.cvt_offset),",
        ".offset    (job.cvt_offset),",
    ),
    mutant(
        "pr_n444_y_position_not_reset",
        "N444 plane join",
        "the Y byte position restarts at 0 instead of X_OFFSET*Bpp0 on each new line",
        PUNP,
        "          p0pos <= 15'(off0);",
        "          p0pos <= '0;",
    ),
    mutant(
        "pr_tlast_every_line",
        "dropping tlast",
        "tlast on the last pixel of every line",
        PUNP,
        "assign px_last  = px_eol && (y == height - 14'd1);",
        "assign px_last  = px_eol;",
    ),
    mutant(
        "pr_bus_error_ignored_in_y_fill",
        "bus error not stopping the job",
        "an RRESP error on a plane-0 word of an N444 line is stored as Y data: no error, the job goes on",
        PUNP,
        "assign err_now  = rd_valid && rd_resp[1];",
        "assign err_now  = rd_valid && rd_resp[1] && !fill;",
    ),
    mutant(
        "pr_val_fp16_precision_skipped",
        "skipped validator rule: precision",
        "an fp16 format with int8/int16 output is accepted",
        PVAL,
        "|| (known && fp16 && d.precision != 2'd2)",
        "/* MUTANT: fp16 to int accepted */",
    ),
    mutant(
        "pr_val_stride_min1_skipped",
        "skipped validator rule: stride minimum",
        "a plane-1 stride shorter than its line is accepted",
        PVAL,
        "errors[PR_ERR_STRIDE_MIN1]   = geo_ok && two && d.stride1 < need1;",
        "errors[PR_ERR_STRIDE_MIN1]   = 1'b0;",
    ),
    mutant(
        "pr_val_addr_overflow_plane1_ignored",
        "skipped validator rule: addr overflow",
        "only plane 0 is checked against the top of the address space",
        PVAL,
        "(top0 > limit || (two && top1 > limit))",
        "(top0 > limit)",
    ),
)
