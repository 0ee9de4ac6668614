"""A job's further stream sidebands (TID, TDEST: DescriptorControl.stream_fields, captured by the stream monitor as
Beat.ids) checked against the job's values (dlaverif.platform.checks.stream_field_problems), without a simulator.
Oracles: hand-written transfers of one job and the lines they must give."""

from __future__ import annotations

from dlaverif.agents.stream import Beat
from dlaverif.platform.binding import DescriptorControl
from dlaverif.platform.checks import stream_field_problems

NAMES = ("tid", "tdest")


def transfers(*ids: tuple) -> list[Beat]:
    """One transfer per ``ids`` (TID, TDEST), at cycles 40, 41, ..."""
    return [Beat(bytes([i]), 1, i == len(ids) - 1, 0, 40 + i, tuple(v)) for i, v in enumerate(ids)]


def test_transfers_that_carry_the_jobs_tid_and_tdest_are_clean():
    assert stream_field_problems("job3", transfers((7, 2), (7, 2), (7, 2)), NAMES, (7, 2)) == []
    assert stream_field_problems("job3", [], NAMES, (7, 2)) == []  # no transfer: nothing to check here


def test_a_swapped_tid_and_tdest_is_one_line_naming_the_first_transfer_and_the_count():
    got = stream_field_problems("job3 addr=0x10", transfers((7, 2), (2, 7), (2, 7)), NAMES, (7, 2))
    assert got == [
        "transfer #1 of job3 addr=0x10 at cycle 41: TID=2, TDEST=7, expected TID=7, TDEST=2 (its descriptor's); "
        "2 of its 3 transfer(s) differ"
    ]


def test_an_unknown_sideband_value_is_reported_as_x():
    (line,) = stream_field_problems("j", transfers((None, 2)), NAMES, (0, 2))
    assert line.startswith("transfer #0 of j at cycle 40: TID=X, TDEST=2, expected TID=0, TDEST=2")


def test_a_beat_without_captured_sidebands_has_none_and_a_binding_names_none_by_default():
    assert Beat(b"\x00", 1, True, 0, 5).ids == ()
    ctl = DescriptorControl("v", "r", (("addr", "a"),), "done")
    assert ctl.stream_fields == ()
