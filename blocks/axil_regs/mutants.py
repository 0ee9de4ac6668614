"""The register block's mutants (``make mutants``): bugs of the shared AXI4-Lite register file that every reader's
model-driven register test (dlaverif/platform/register_check.py) must catch."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

REGS = "axil_regs.sv"

MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "axil_unmapped_read_okay",
        "register decode",
        "a read of an unmapped offset answers OKAY instead of SLVERR",
        REGS,
        "s_axil_rresp  <= ar_mapped ? 2'b00 : 2'b10;",
        "s_axil_rresp  <= 2'b00;",
    ),
    mutant(
        "axil_write_strobes_ignored",
        "register write",
        "WSTRB ignored: a one-byte write changes every byte of the register",
        REGS,
        "for (int b = 0; b < 4; b++) strb_bits[8*b +: 8] = {8{w_strb[b]}};",
        "for (int b = 0; b < 4; b++) strb_bits[8*b +: 8] = 8'hFF;",
    ),
)
