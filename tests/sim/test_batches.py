"""Columnar batches of the fast path (``dlaverif.agents.analysis.Batch``): a batch must read exactly as the list of
transaction objects the default agents publish, and the column helpers must give the same bytes either way."""

from __future__ import annotations

import numpy as np

from dlaverif.agents.analysis import AnalysisPort, JobLog
from dlaverif.agents.axi_mem import RBeat, RBeatBatch
from dlaverif.agents.stream import Beat, BeatBatch, payload, sidebands
from dlaverif.fastpath.harness import _bit_length


def _beats(rng: np.random.Generator, n: int) -> list[Beat]:
    out = []
    for i in range(n):
        size = int(rng.integers(1, 129))
        data = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
        out.append(Beat(data, (1 << size) - 1, bool(rng.integers(2)), int(rng.integers(0, 2**63)), 100 + i))
    return out


def _batch(beats: list[Beat]) -> BeatBatch:
    keep = [b.keep for b in beats]
    return BeatBatch(
        np.frombuffer(b"".join(b.data for b in beats), np.uint8),
        np.array([len(b.data) for b in beats]),
        np.array([k & (2**64 - 1) for k in keep], np.uint64),
        np.array([k >> 64 for k in keep], np.uint64),
        np.array([b.last for b in beats]),
        np.array([b.user for b in beats], np.uint64),
        np.array([b.cycle for b in beats], np.int64),
    )


def test_beat_batch_reads_as_the_list_of_beats() -> None:
    beats = _beats(np.random.default_rng(3), 40)
    batch = _batch(beats)
    assert len(batch) == 40
    assert list(batch) == beats
    assert batch[-1] == beats[-1] and batch[7] == beats[7]
    assert list(batch[5:17]) == beats[5:17]
    assert list(batch[::3]) == beats[::3]
    for seq in (beats, batch, batch[2:9], beats[2:9]):
        data, sizes = payload(seq)
        assert data.tobytes() == b"".join(b.data for b in seq)
        assert sizes.tolist() == [len(b.data) for b in seq]
        user, last = sidebands(seq)
        assert user.tolist() == [b.user for b in seq] and last.tolist() == [b.last for b in seq]


def test_rbeat_batch_and_joblog_merge() -> None:
    rows = [RBeat(0x1000 + 32 * i, i % 4, i % 3 == 0, 7 + i) for i in range(10)]
    batch = RBeatBatch(
        np.array([r.addr for r in rows], np.uint64),
        np.array([r.resp for r in rows]),
        np.array([r.last for r in rows]),
        np.array([r.cycle for r in rows]),
    )
    port = AnalysisPort("r")
    log = JobLog(r=port)
    port.write(batch)
    assert log.take()["r"] is batch  # a lone batch is handed over whole
    port.write(rows[0])
    port.write(batch[1:3])
    assert log.take()["r"] == [rows[0], rows[1], rows[2]]  # mixed: spliced into one list, in order
    assert log.take()["r"] == []


def test_bit_length_is_exact_on_uint64() -> None:
    rng = np.random.default_rng(5)
    v = np.concatenate(
        [
            rng.integers(0, 2**63, 2000, dtype=np.uint64) >> rng.integers(0, 63, 2000).astype(np.uint64),
            np.array([0, 1, 2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64 - 1], np.uint64),
        ]
    )
    assert _bit_length(v).tolist() == [int(x).bit_length() for x in v.tolist()]
