"""The cube reader's descriptor validator's mutants (``make mutants``): one rule family each."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

VAL = "cr_desc_validator.sv"

MUTANTS: tuple[Mutant, ...] = (
    # ---- descriptor validator (cr_desc_validator.sv): one rule family each
    mutant(
        "val_align_base_skipped",
        "skipped validator rule: alignment",
        "ERR_ALIGN_BASE never set for power-of-two alignments",
        VAL,
        "mis_pow2[0] = (l_base & {32'd0, align_m1}) != 64'd0;",
        "mis_pow2[0] = 1'b0;",
    ),
    mutant(
        "val_align_nvdla_min32_forgotten",
        "skipped validator rule: alignment",
        "NVDLA layouts: the 32-byte minimum alignment (Table 35) is forgotten, align = atom size",
        VAL,
        "align      = (nvdla_layout && l_atom < 32'd32) ? 32'd32 : (l_atom == 32'd0 ? 32'd1 : l_atom);",
        "align      = (l_atom == 32'd0 ? 32'd1 : l_atom);",
    ),
    mutant(
        "val_overlap_ignores_atom",
        "skipped validator rule: overlap",
        "the overlap rule forgets the atom size: a stride one atom too short is accepted",
        VAL,
        "inner = {{(SW-32){1'b0}}, l_atom};",
        "inner = '0;",
    ),
    mutant(
        "val_count_no_upper_bound",
        "skipped validator rule: count",
        "ERR_COUNT only for a zero count: counts above 65535 are accepted (and truncated to 16 bits)",
        VAL,
        "if (l_cnt[d] == 32'd0 || l_cnt[d] > 32'(CR_MAX_COUNT)) count_ok = 1'b0;",
        "if (l_cnt[d] == 32'd0) count_ok = 1'b0;",
    ),
    mutant(
        "val_addr_overflow_ignores_base_hi",
        "skipped validator rule: addr overflow",
        "the overflow check uses only the low ADDR_W bits of the base: a base beyond 2**ADDR_W wraps",
        VAL,
        "top     = $signed({{(SW-64){1'b0}}, l_base}) + ext_pos;",
        "top     = $signed({{(SW-ADDR_W){1'b0}}, l_base[ADDR_W-1:0]}) + ext_pos;",
    ),
    mutant(
        "val_addr_overflow_off_by_one",
        "skipped validator rule: addr overflow",
        "a cube whose last byte is the last address of the bus (base + extent == 2**ADDR_W) is refused",
        VAL,
        "ovf     = top > limit;",
        "ovf     = top >= limit;",
    ),
)
