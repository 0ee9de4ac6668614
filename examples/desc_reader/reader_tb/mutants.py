"""The example's mutant, a bug of rtl/desc_reader.sv that its tests must catch (``make mutant``): the platform's
mutation record (:mod:`dlaverif.flow.mutation`), applied to a copy of rtl/ by its engine's
:func:`dlaverif.flow.mutants.make_copy` (which refuses an edit whose old text does not occur exactly once, so an RTL
change never makes it a no-op)."""

from __future__ import annotations

import sys
from pathlib import Path

from dlaverif.flow.mutants import make_copy
from dlaverif.flow.mutation import mutant

RTL = Path(__file__).resolve().parents[1] / "rtl"
FIRST_LANE_IGNORED = mutant(
    "first_lane_ignored",
    "unaligned start",
    "a job's first word is packed from lane 0: the bytes below its address lead its output",
    "desc_reader.sv",
    "lo = first_beat ? first_lane : '0;",
    "lo = '0;",
)

if __name__ == "__main__":
    print(make_copy(FIRST_LANE_IGNORED, Path(sys.argv[1]), RTL))  # <folder>/rtl: the mutated copy of rtl/
