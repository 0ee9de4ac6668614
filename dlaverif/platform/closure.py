"""Coverage closure for stimulus: which bins of a covergroup no test of this simulation has hit yet, read from
cocotb-coverage's database (``coverage_db``), so a coverage-driven sequence can aim its next item at them. Reading
the hit counts is all a sequence needs of coverage: it imports no block's coverage model, scoreboard or checker
(the layout test's rule for stimulus), only this query by the covergroup's name."""

from __future__ import annotations

from cocotb_coverage.coverage import coverage_db


def _hits(covergroup: str) -> dict:
    try:
        return coverage_db[covergroup].detailed_coverage
    except KeyError:
        raise KeyError(f"no covergroup {covergroup!r} is defined in this simulation") from None


def bins(covergroup: str) -> list:
    """Every bin of ``covergroup`` (its full name, ``<block>.<point>``), hit or not. A name no coverage model has
    defined is a KeyError naming it."""
    return list(_hits(covergroup))


def unhit(covergroup: str) -> list:
    """The bins of ``covergroup`` not hit yet in this simulation: every test of a run shares the database."""
    return [b for b, n in _hits(covergroup).items() if n < 1]
