"""The read engine's mutants (``make mutants``): the 4 KB rule and the reads in flight."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

ENG = "axi_rd_engine.sv"

MUTANTS: tuple[Mutant, ...] = (
    # ---- AXI read engine (axi_rd_engine.sv)
    mutant(
        "burst_crosses_4kb",
        "a burst crossing 4 KB",
        "bursts are not split at 4 KB boundaries",
        ENG,
        "if (blen > BEATS_W'(to4k))      blen = BEATS_W'(to4k);",
        "/* MUTANT: no 4 KB split */",
    ),
    mutant(
        "burst_4kb_one_beat_over",
        "a burst crossing 4 KB",
        "the 4 KB split is one beat late: a burst reaching a boundary takes one beat of the next page",
        ENG,
        "blen = BEATS_W'(to4k);",
        "blen = BEATS_W'(to4k) + BEATS_W'(1);",
    ),
    mutant(
        "outstanding_limit_off_by_one",
        "an outstanding-read limit off by one",
        "MAX_OUTSTANDING+1 bursts in flight (the burst FIFO holds MAX_OUTSTANDING: its head entry is overwritten)",
        ENG,
        "(outs < CNT_W'(MAX_OUTSTANDING))",
        "(outs <= CNT_W'(MAX_OUTSTANDING))",
    ),
    mutant(
        "burst_fifo_wraps_early",
        "an outstanding-read limit off by one",
        "the burst FIFO pointers wrap one entry early: with every slot in flight the newest burst overwrites the "
        "head's bookkeeping (its address, length and lanes)",
        ENG,
        "ptr_inc = (p == PTR_W'(MAX_OUTSTANDING - 1))",
        "ptr_inc = (p == PTR_W'(MAX_OUTSTANDING - 2))",
    ),
    mutant(
        "outstanding_count_misses_overlap",
        "in-flight bookkeeping",
        "a burst returning in the cycle another is issued is not counted out: the in-flight count creeps up, "
        "reads in flight shrink and busy never falls",
        ENG,
        "outs <= outs + CNT_W'(issue) - CNT_W'(pop);",
        "outs <= issue ? outs + CNT_W'(1) : outs - CNT_W'(pop);",
    ),
)
