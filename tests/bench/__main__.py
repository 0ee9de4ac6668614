"""`make bench`: MB/s of pack and unpack for the cases of the model issues, next to numpy's plain copy; then the
cube reader's bus utilization against memory latency and the read engine's size (``tests/bench/latency.py``), the
three readers' efficiency at latency 0/32 with and without backpressure (``efficiency.py``), the testbench
throughput (``throughput.py``) and the models' share of a regression (``model_share.py``).

Each case is timed as the best of several repetitions (the machines are shared and noisy: the best run is
the least disturbed one). MB/s counts the bytes of the logical tensor. Results are printed as a table and
written to ``sim_build/bench/models.json``. Nothing here asserts a time.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

from dlaverif import models

OUT = Path(__file__).resolve().parents[2] / "sim_build" / "bench"


def _best(fn: Callable[[], object], reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _cases(rng: np.random.Generator) -> list[tuple[str, str, np.ndarray, dict]]:
    feat = rng.integers(-128, 128, (1, 256, 56, 56), dtype=np.int8)
    w = rng.integers(-32768, 32768, (256, 256, 3, 3), dtype=np.int16)
    w[rng.random(w.shape) < 0.5] = 0
    img = rng.integers(0, 256, (1080, 1920, 4), dtype=np.uint8)
    cases: list[tuple[str, str, np.ndarray, dict]] = [
        ("nvdla.feature 1x256x56x56 int8", "nvdla.feature", feat, {}),
        ("nvdla.weight.dc 256x256x3x3 int16 50% sparse, compressed", "nvdla.weight.dc", w, {"compress": True}),
        ("nvdla.pixel.T_A8R8G8B8 1080x1920", "nvdla.pixel.T_A8R8G8B8", img, {}),
    ]
    makers: tuple[tuple[str, Callable[[tuple[int, ...]], np.ndarray]], ...] = (
        ("f32", lambda s: rng.standard_normal(s, dtype=np.float32)),
        ("s8", lambda s: rng.integers(-128, 128, s, dtype=np.int8)),
    )
    for shape in ((1, 64, 224, 224), (8, 256, 56, 56)):
        for dt, make in makers:
            cases.append((f"onednn nchw->nChw16c {'x'.join(map(str, shape))} {dt}", "onednn.nChw16c", make(shape), {}))
    return cases


def main() -> int:
    rng = np.random.default_rng(0)
    rows = []
    print(f"{'case':58s} {'MB':>7s} {'pack MB/s':>10s} {'unpack MB/s':>12s} {'np.copy MB/s':>13s}")
    for label, fmt, tensor, opts in _cases(rng):
        mb = tensor.nbytes / 1e6
        reps = 5 if tensor.nbytes > 50e6 else 10
        try:
            img = models.pack(fmt, tensor, **opts)
            # B023: each lambda is called (by _best) before the loop variables move on
            t_pack = _best(lambda: models.pack(fmt, tensor, **opts), reps)  # noqa: B023  (called at once)
            t_unpack = _best(lambda: models.unpack(fmt, img, tensor.shape, tensor.dtype, **opts), reps)  # noqa: B023  (called at once)
            back = models.unpack(fmt, img, tensor.shape, tensor.dtype, **opts)
            ok = bool(np.array_equal(back.view(np.uint8), tensor.view(np.uint8)))
        except models.FormatError as exc:
            print(f"{label:58s} unavailable: {exc}")
            continue
        t_copy = _best(tensor.copy, reps)
        row = {
            "case": label,
            "format": fmt,
            "bytes": int(tensor.nbytes),
            "image_bytes": int(img.nbytes),
            "pack_s": t_pack,
            "unpack_s": t_unpack,
            "copy_s": t_copy,
            "pack_MBps": mb / t_pack,
            "unpack_MBps": mb / t_unpack,
            "copy_MBps": mb / t_copy,
            "round_trip_ok": ok,
        }
        rows.append(row)
        print(
            f"{label:58s} {mb:7.1f} {row['pack_MBps']:10.0f} {row['unpack_MBps']:12.0f} {row['copy_MBps']:13.0f}"
            + ("" if ok else "  ROUND TRIP MISMATCH")
        )
    OUT.mkdir(parents=True, exist_ok=True)
    doc = {"python": platform.python_version(), "numpy": np.__version__, "machine": platform.machine(), "rows": rows}
    (OUT / "models.json").write_text(json.dumps(doc, indent=2))
    print(f"written {OUT / 'models.json'}")
    return 0 if all(r["round_trip_ok"] for r in rows) else 1


if __name__ == "__main__":
    # read-engine utilization; DUT efficiency, testbench throughput and the models' share
    from . import efficiency, latency, model_share, throughput

    sys.exit(max(main(), latency.main(), efficiency.main(), throughput.main(), model_share.main()))
