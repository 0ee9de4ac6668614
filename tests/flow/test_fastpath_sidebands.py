"""Stream sidebands on the fast path, without a simulator: the wrapper captures them above TUSER in one 64-bit word
(dlaverif/flow/fastpath.py), the harness splits that word by the flow's ``FASTPATH_USER`` layout and publishes them
as a column of the job's BeatBatch (dlaverif/fastpath/harness.py), and the TID/TDEST check gives on that column the
lines it gives on Beat objects. Oracles: hand-written words and transfers."""

from __future__ import annotations

import numpy as np
import pytest

from dlaverif.agents.analysis import AnalysisPort, JobLog
from dlaverif.agents.stream import Beat, BeatBatch
from dlaverif.fastpath import harness
from dlaverif.platform.checks import stream_field_problems
from tests.sim.test_stream_ids import NAMES, transfers


def _batch(ids: list[tuple[int, int]]) -> BeatBatch:
    n = len(ids)
    return BeatBatch(
        np.arange(n, dtype=np.uint8),
        np.ones(n, np.int64),
        np.ones(n, np.uint64),
        np.zeros(n, np.uint64),
        np.arange(n) == n - 1,
        np.zeros(n, np.uint64),
        40 + np.arange(n, dtype=np.int64),
        np.array(ids, np.int64).reshape(n, 2),
    )


def test_the_layout_and_the_fields_of_a_captured_word():
    layout = harness.user_layout("tuser:1,tid:4,tdest:4")
    assert layout == {"tuser": (0, 1), "tid": (1, 4), "tdest": (5, 4)}
    word = np.array([(9 << 5) | (6 << 1) | 1], np.uint64)  # TDEST 9, TID 6, TUSER 1
    assert harness._field(word, *layout["tuser"]).tolist() == [1]
    assert harness._field(word, *layout["tid"]).tolist() == [6]
    assert harness._field(word, *layout["tdest"]).tolist() == [9]
    assert harness._field(np.array([2**64 - 1], np.uint64), 0, 64).tolist() == [2**64 - 1]  # our readers' TUSER


def test_a_batch_with_sidebands_reads_as_beats_that_carry_them():
    batch = _batch([(7, 2), (7, 2), (3, 1)])
    assert batch[2] == Beat(bytes([2]), 1, True, 0, 42, (3, 1))
    assert [b.ids for b in batch[1:]] == [(7, 2), (3, 1)]  # a slice keeps its rows' sidebands
    assert _batch([(0, 0)])[0].ids == (0, 0) and BeatBatch(*[c[:0] for c in _columns()]).ids is None


def _columns() -> list[np.ndarray]:
    return [
        np.zeros(0, np.uint8),
        np.zeros(0, np.int64),
        *[np.zeros(0, np.uint64)] * 2,
        np.zeros(0, bool),
        np.zeros(0, np.uint64),
        np.zeros(0, np.int64),
    ]


def test_the_tid_tdest_check_says_the_same_on_a_batch_as_on_beats():
    ids = [(7, 2), (2, 7), (2, 7)]
    on_beats = stream_field_problems("job3 addr=0x10", transfers(*ids), NAMES, (7, 2))
    assert on_beats and stream_field_problems("job3 addr=0x10", _batch(ids), NAMES, (7, 2)) == on_beats
    assert stream_field_problems("job3", _batch([(7, 2)] * 4), NAMES, (7, 2)) == []


def test_a_binding_asking_for_a_sideband_the_build_does_not_capture_is_one_line(monkeypatch):
    monkeypatch.setenv("FASTPATH_USER", "tuser:1,tid:4")
    with pytest.raises(ValueError) as exc:
        harness.HdlStreamCapture(None, ("tid", "tdest"))
    assert str(exc.value) == (
        "the fast-path build captures no stream sideband tdest: declare tdest under the build's fastpath.sidebands"
    )


def test_a_log_counts_a_batch_by_its_rows_without_building_them():
    port = AnalysisPort("out")
    log = JobLog(out=port)
    port.write(_batch([(1, 1)] * 5))
    port.write(Beat(b"\x00", 1, True, 0, 9))
    assert log.count("out") == 6 and len(log["out"]) == 6
