"""The scoreboard of jobs of one contiguous byte range (dlaverif/platform/contiguous.py), without a simulator: its
``compare`` on hand-made transfers of a job at 0x1003 of 10 bytes on an 8-byte bus. Oracles: the bytes, transfers and
cycles written here, each report's text worked out by hand (hex_bytes groups 4 bytes)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
from pyuvm import ConfigDB

from dlaverif.agents.stream import Beat
from dlaverif.platform import ContiguousExpectation, ContiguousScoreboard, flip_byte, flip_user

BLOB = np.arange(1, 11, dtype=np.uint8)  # the job's 10 bytes: 01 .. 0a


@dataclass
class _Response:
    beats: list[Beat]
    violations: list[str] = field(default_factory=list)


@dataclass
class _Job:
    beats: list[Beat]
    addr: int = 0x1003
    blob: np.ndarray = field(default_factory=lambda: BLOB.copy())
    job_id: int = 6

    def response(self) -> _Response:
        return _Response(self.beats, ["a violation the checkers published for this job"])


class _ById(ContiguousScoreboard):
    user_means = "the job's id"

    def user_of(self, job: _Job) -> int:
        return job.job_id


def _compare(sb: type[ContiguousScoreboard], job: _Job) -> list[str]:
    """``compare`` of the class ``sb`` (a pyuvm component needs a running test to be built; compare uses none of it)."""
    ConfigDB().set(None, "*", "BUS_BYTES", 8)
    self = sb.__new__(sb)
    return sb.compare(self, job, sb.expected(self, job))


def _beats(*chunks: tuple[bytes, int, int]) -> list[Beat]:
    """Transfers (bytes, TUSER, cycle), TLAST on the last."""
    return [Beat(d, (1 << len(d)) - 1, i == len(chunks) - 1, u, c) for i, (d, u, c) in enumerate(chunks)]


def test_a_job_whose_bytes_transfers_and_tuser_are_right_has_only_the_checkers_lines():
    job = _Job(_beats((bytes(range(1, 9)), 6, 40), (bytes([9, 10]), 6, 41)))
    assert _compare(_ById, job) == ["a violation the checkers published for this job"]


def test_a_wrong_byte_is_named_with_its_address_and_the_transfer_that_carried_it():
    job = _Job(_beats((bytes(range(1, 9)), 6, 40), (bytes([9, 0xFF]), 6, 41)))
    out = _compare(_ById, job)
    assert out[0] == (
        "data mismatch: 10 bytes, 10 expected; first difference at byte 9 (address 0x100c): got ff, expected 0a; "
        "in transfer #1 of 2 at cycle 41"
    )


def test_missing_bytes_a_short_transfer_and_a_wrong_tuser_are_each_one_line():
    job = _Job(_beats((bytes(range(1, 5)), 6, 40), (bytes(range(5, 9)), 7, 43)))
    out = _compare(_ById, job)
    assert out[:3] == [
        "data mismatch: 8 bytes, 10 expected; first difference at byte 8 (address 0x100b): got , expected 090a; "
        "in transfer #1 of 2 at cycle 43",
        "transfer #0/2 at cycle 40: 4 bytes, not 8 (only the last may be short)",
        "TUSER 7 at cycle 43, expected 6 (the job's id)",
    ]


def test_by_default_tuser_must_be_zero():
    job = _Job(_beats((bytes(range(1, 9)), 0, 40), (bytes([9, 10]), 1, 41)))
    assert _compare(ContiguousScoreboard, job)[0] == "TUSER 1 at cycle 41, expected 0 (TUSER)"


@pytest.mark.parametrize("corrupt, field_name", [(flip_byte, "data"), (flip_user, "user")])
def test_each_corruption_changes_only_its_field_and_names_what_reports_it(corrupt, field_name):
    exp = ContiguousExpectation(BLOB.copy(), 6)
    said = corrupt(None, exp, np.random.default_rng(3))
    assert said == {"data": "data mismatch", "user": "TUSER"}[field_name]
    changed = {"data": not np.array_equal(exp.data, BLOB), "user": exp.user != 6}
    assert changed == {k: k == field_name for k in changed}
