"""The weight reader's mutants (``make mutants``): sparse expansion, element size, WGS checks, tlast,
validator."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

# the weight reader's parts
WTOP, WEXP, WWGS, WVAL = "weight_reader.sv", "wr_expander.sv", "wr_wgs_unpack.sv", "wr_validator.sv"

MUTANTS: tuple[Mutant, ...] = (
    # ---- weight reader: sparse expansion (wr_expander.sv), element size (weight_reader.sv), checks
    mutant(
        "wr_wmb_bit_order_reversed",
        "mask bit order reversed within a byte",
        "WMB bits are taken MSB first inside each byte (NVIDIA's v2 generator order), not LSB first",
        WEXP,
        "assign wmb_bits = wmb_raw;",
        "for (genvar b = 0; b < BW; b++) begin : g_mutant_byte\n"
        "    for (genvar i = 0; i < 8; i++) begin : g_mutant_bit\n"
        "      assign wmb_bits[8*b + i] = wmb_raw[8*b + 7 - i];\n"
        "    end\n"
        "  end",
    ),
    mutant(
        "wr_element_size_ignored",
        "element size ignored (one bit per byte)",
        "every element is taken as one byte: one mask bit per byte and group sizes in bytes, for int16/fp16 too",
        WTOP,
        "assign job_e2      = (j_elem == 32'd2);",
        "assign job_e2      = 1'b0;",
    ),
    mutant(
        "wr_wgs_off_by_one_accepted",
        "WGS off by one",
        "the WGS check accepts an entry one element larger than popcount(WMB) x element bytes",
        WEXP,
        "(last_beat ? (grp_used + 32'(k) != grp_wgs)",
        "(last_beat ? (grp_used + 32'(k) != grp_wgs && grp_used + 32'(k) + (e2 ? 32'd2 : 32'd1) != grp_wgs)",
    ),
    mutant(
        "wr_wgs_entry_skipped",
        "WGS off by one",
        "the WGS unpacker skips the first entry of every WGS beat: groups are checked against the next group's entry",
        WWGS,
        "assign j_abs  = EW'(lo >> 2) + j;",
        "assign j_abs  = EW'(lo >> 2) + j + EW'(j == '0 && lo == '0);",
    ),
    mutant(
        "wr_wgs_limit_first_entry",
        "WGS read limit",
        "the weight-data read limit adds only the first WGS entry of each arriving beat: the weight reads stop short "
        "of the data the groups need",
        WWGS,
        "if (EW'(k) >= a_first && EW'(k) <= a_last) a_sum",
        "if (EW'(k) == a_first) a_sum",
    ),
    mutant(
        "wr_last_partial_group_dropped",
        "last partial group dropped",
        "a shorter last kernel group is never sent: the job ends after the group before it",
        WEXP,
        "last_grp  = (grp == groups - 16'd1);",
        "last_grp  = (grp == groups - 16'd1) || (grp == groups - 16'd2 && last_elems != group_elems);",
    ),
    mutant(
        "wr_group_boundary_ignored",
        "group boundary ignored in the bit stream",
        "the mask bits left in a group's last transfer are skipped, as if every group's WMB started a new transfer",
        WEXP,
        "m_take  = fire ? n : '0;",
        "m_take  = fire ? (last_beat ? ne : n) : '0;",
    ),
    mutant(
        "wr_tlast_one_beat_early",
        "tlast on the wrong beat",
        "tlast on the last-but-one transfer of a group (and on its last)",
        WEXP,
        "assign o_last  = (grp_left <= 32'(ne));",
        "assign o_last  = (grp_left <= 32'(2) * 32'(ne));",
    ),
    mutant(
        "wr_tlast_only_at_job_end",
        "tlast on the wrong beat",
        "tlast only on the last transfer of the job, not of every kernel group",
        WEXP,
        "assign o_last  = (grp_left <= 32'(ne));",
        "assign o_last  = (grp_left <= 32'(ne)) && last_grp;",
    ),
    mutant(
        "wr_data_lane_offset_ignored",
        "sparse expansion",
        "a weight-data piece that starts inside a bus word is taken from byte lane 0",
        WEXP,
        "dat_bytes = dat_raw >> (8 * dat_lo);",
        "dat_bytes = dat_raw;",
    ),
    mutant(
        "wr_overrun_unchecked",
        "run-time check skipped",
        "the WGS sum is never compared with WEIGHT_BYTES: a truncated compressed surface is not reported",
        WEXP,
        "assign ovr      = compressed && ent_valid && ({16'd0, cum} + 64'(ent) > 64'(weight_bytes));",
        "assign ovr      = 1'b0;",
    ),
    mutant(
        "wr_val_wmb_size_lower_bound_skipped",
        "skipped validator rule: size",
        "ERR_SIZE_WMB only for sizes that are not 128-byte multiples: a WMB too small for the elements is accepted",
        WVAL,
        "|| (counts_ok && {29'd0, wmb_bytes, 3'd0} < dense_elems));",
        ");",
    ),
)
