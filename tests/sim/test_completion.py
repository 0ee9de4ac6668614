"""Framing output transfers into jobs by what the completion signal means (dlaverif.platform.completion), without a
simulator. Oracles: hand-written cycle stamps of two small jobs."""

from __future__ import annotations

import numpy as np

from dlaverif.agents.stream import Beat
from dlaverif.platform.binding import Completion
from dlaverif.platform.completion import frame


def beats(*spec: tuple[int, bool]) -> list[Beat]:
    """Transfers (cycle, TLAST) with one data byte each, the byte being the transfer's index."""
    return [Beat(bytes([i]), 1, last, 0, cycle) for i, (cycle, last) in enumerate(spec)]


# job a: transfers at cycles 10, 11, 12 (TLAST); job b: 20, 21 (TLAST)
STREAM = beats((10, False), (11, False), (12, True), (20, False), (21, True))


def test_drained_completion_after_the_last_transfer_is_clean():
    f = frame(["a", "b"], STREAM, [12, 25], Completion.DRAINED)
    assert f.errors == []
    assert [len(j.beats) for j in f.jobs] == [3, 2] and [j.closed for j in f.jobs] == [12, 25]


def test_drained_completion_before_the_last_transfer_is_one_protocol_error_per_job_not_a_data_shift():
    f = frame(["a", "b"], STREAM, [11, 21], Completion.DRAINED)
    assert [len(j.beats) for j in f.jobs] == [3, 2]  # transfer 12 stays in job a: the data check sees a whole
    assert [bytes(b.data[0] for b in j.beats) for j in f.jobs] == [b"\x00\x01\x02", b"\x03\x04"]
    assert len(f.errors) == 1
    e = f.errors[0]
    assert (e.job, e.cycle) == ("a", 12)
    assert str(e) == (
        "protocol error: job a closed at cycle 11 by its completion (the binding says completion means 'drained': "
        "output delivered), but its transfer #2 of 3 arrived at cycle 12"
    )


def test_drained_counts_every_late_transfer_of_a_job():
    f = frame(["a"], STREAM[:3], [10], Completion.DRAINED)
    assert len(f.errors) == 1 and f.errors[0].text.endswith(
        "arrived at cycle 11; 1 more of its transfers came after it"
    )


def test_issued_closes_each_job_at_its_tlast():
    f = frame(["a", "b"], STREAM, [11, 20], Completion.ISSUED)
    assert f.errors == []
    assert [j.closed for j in f.jobs] == [12, 21] and [j.completed for j in f.jobs] == [11, 20]


def test_missing_completions_extra_completions_and_orphan_transfers_are_reported():
    f = frame(["a"], STREAM, [], Completion.ISSUED)
    texts = [e.text for e in f.errors]
    assert "transfer #3 at cycle 20 belongs to no job: the last job a closed at cycle 12" in texts
    assert "job a never completed (3 transfer(s) seen)" in texts
    f = frame(["a"], STREAM[:3], [12, 30], Completion.DRAINED)
    assert [e.text for e in f.errors] == ["completion at cycle 30 with no job in flight"]


def test_late_transfers_of_a_register_job_from_a_list_and_from_the_fast_paths_batch():
    from dlaverif.agents.stream import BeatBatch
    from dlaverif.platform.completion import late_transfers

    one_byte = np.ones(5, np.int64)
    batch = BeatBatch(
        np.arange(5, dtype=np.uint8),
        one_byte,
        np.ones(5, np.uint64),
        np.zeros(5, np.uint64),
        np.array([0, 0, 1, 0, 1], bool),
        np.zeros(5, np.uint64),
        np.array([10, 11, 12, 20, 21]),
    )
    for beats in (STREAM, batch):
        assert late_transfers("j", beats, 21, Completion.DRAINED) == []
        (e,) = late_transfers("j", beats, 19, Completion.DRAINED)
        assert (e.job, e.cycle) == ("j", 20)
        assert e.text.endswith("its transfer #3 of 5 arrived at cycle 20; 1 more of its transfers came after it")


def test_with_tags_interleaved_jobs_are_framed_by_the_tag_each_transfer_carries():
    # job a (tag 5): cycles 10, 12 (TLAST); job b (tag 6): cycles 11 (TLAST); then a transfer with tag 9
    mixed = [Beat(b"\x01", 1, False, 5, 10), Beat(b"\x02", 1, True, 6, 11), Beat(b"\x03", 1, True, 5, 12)]
    f = frame(["a", "b"], mixed, [12, 11], Completion.ISSUED, tags=[5, 6])
    assert f.errors == []
    assert [[bytes(x.data) for x in j.beats] for j in f.jobs] == [[b"\x01", b"\x03"], [b"\x02"]]
    assert [j.closed for j in f.jobs] == [12, 11]
    # in job order (no tags) the same stream puts b's transfer into a and closes a early
    assert [len(j.beats) for j in frame(["a", "b"], mixed, [12, 11], Completion.ISSUED).jobs] == [2, 1]
    f = frame(["a", "b"], [*mixed[:2], Beat(b"\x04", 1, True, 9, 13)], [12, 11], Completion.ISSUED, tags=[5, 6])
    assert [e.text for e in f.errors] == [
        "transfer #2 at cycle 13 belongs to no job: its tag 9 is the tag of no job in flight"
    ]
