"""The CLI writes only what it produced. Every failure is one line on stderr and exit 2, and a
failed call leaves the disk exactly as it was (no temporary or parent folders, an older output intact)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlaverif.models.__main__ import main

from .hostile_cases import ALL_FORMATS, option_names, valid_cases

ROOT = Path(__file__).resolve().parents[2]


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path below ``folder`` with its content (None for folders)."""
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


def fails_cleanly(folder: Path, capsys, *argv) -> str:
    """Run the CLI in-process; assert exit 2, one stderr line, empty stdout, nothing changed below ``folder``."""
    before = snapshot(folder)
    capsys.readouterr()
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2, (argv, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
    assert out == ""
    assert snapshot(folder) == before
    return err


@pytest.fixture
def work(tmp_path: Path) -> Path:
    np.save(tmp_path / "x.npy", np.arange(2 * 40 * 4 * 4, dtype=np.int8).reshape(2, 40, 4, 4))
    np.save(tmp_path / "w.npy", np.arange(33 * 5 * 3 * 3, dtype=np.int8).reshape(33, 5, 3, 3))
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "mine.txt").write_text("user data")
    (tmp_path / "old.bin").write_bytes(b"older output")
    return tmp_path


def test_existing_folder_is_never_deleted_or_written(work, capsys):
    err = fails_cleanly(work, capsys, "pack", "nvdla.feature", "-i", work / "x.npy", "-o", work / "keep")
    assert "existing folder" in err
    fails_cleanly(work, capsys, "pack", "nvdla.weight.dc", "-i", work / "w.npy", "-o", work / "keep")
    fails_cleanly(
        work,
        capsys,
        "unpack",
        "nvdla.feature",
        "-i",
        work / "old.bin",
        "-o",
        work / "keep",
        "--shape",
        "1,1,1,1",
        "--dtype",
        "int8",
    )


def test_multi_surface_output_must_be_new(work, capsys):
    fails_cleanly(
        work, capsys, "pack", "nvdla.weight.dc", "-i", work / "w.npy", "-o", work / "old.bin", "--opt", "compress=1"
    )
    assert (
        main(["pack", "nvdla.weight.dc", "-i", str(work / "w.npy"), "-o", str(work / "w"), "--opt", "compress=1"]) == 0
    )
    assert sorted(p.name for p in (work / "w").iterdir()) == ["weight.bin", "wgs.bin", "wmb.bin"]
    fails_cleanly(
        work, capsys, "pack", "nvdla.weight.dc", "-i", work / "w.npy", "-o", work / "w", "--opt", "compress=1"
    )


def test_a_250_character_name_is_written_alone(work):
    """The temporary name is short, so any name the file system accepts works and nothing else is left."""
    before = set(snapshot(work))
    assert main(["pack", "nvdla.feature", "-i", str(work / "x.npy"), "-o", str(work / ("n" * 246 + ".bin"))]) == 0
    assert set(snapshot(work)) - before == {"n" * 246 + ".bin"}


def test_single_file_output_replaces_an_older_file_only_on_success(work, capsys):
    fails_cleanly(
        work, capsys, "pack", "nvdla.feature", "-i", work / "x.npy", "-o", work / "old.bin", "--opt", "line_stride=33"
    )
    assert main(["pack", "nvdla.feature", "-i", str(work / "x.npy"), "-o", str(work / "old.bin")]) == 0
    assert (work / "old.bin").read_bytes() != b"older output"


@pytest.mark.parametrize(
    "case",
    [
        "parent_is_file",
        "parent_missing",
        "long_name",
        "empty_npy",
        "garbage_npy",
        "npz",
        "huge_opt",
        "bad_base",
        "missing_input",
        "input_is_folder",
        "bad_opt_syntax",
    ],
)
def test_failures_are_one_line_and_change_nothing(work, capsys, case):
    x, out = work / "x.npy", work / "out.bin"
    (work / "empty.npy").write_bytes(b"")
    (work / "garbage.npy").write_bytes(bytes(range(256)) * 3)
    np.savez(work / "z.npz", a=np.zeros(3))
    argv = {
        "parent_is_file": ("pack", "nvdla.feature", "-i", x, "-o", work / "old.bin" / "out.bin"),
        "parent_missing": ("pack", "nvdla.feature", "-i", x, "-o", work / "new" / "deeper" / "out.bin"),
        "long_name": ("pack", "nvdla.feature", "-i", x, "-o", work / ("n" * 300 + ".bin")),
        "empty_npy": ("pack", "nvdla.feature", "-i", work / "empty.npy", "-o", out),
        "garbage_npy": ("pack", "nvdla.feature", "-i", work / "garbage.npy", "-o", out),
        "npz": ("pack", "nvdla.feature", "-i", work / "z.npz", "-o", out),
        "huge_opt": ("pack", "nvdla.feature", "-i", x, "-o", out, "--opt", "line_stride=" + "9" * 29 + "68"),
        "bad_base": ("info", "nvdla.feature", "--shape", "1,1,1,1", "--dtype", "int8", "--base", str(2**64)),
        "missing_input": ("pack", "nvdla.feature", "-i", work / "nope.npy", "-o", out),
        "input_is_folder": (
            "unpack",
            "nvdla.weight.dc",
            "-i",
            work / "keep",
            "-o",
            out,
            "--shape",
            "1,1,1,1",
            "--dtype",
            "int8",
        ),
        "bad_opt_syntax": ("pack", "nvdla.feature", "-i", x, "-o", out, "--opt", "=3"),
    }[case]
    fails_cleanly(work, capsys, *argv)


def test_disk_full_is_one_line_and_leaves_nothing(work):
    """``ulimit -f``: the write fails with EFBIG; exit 2, one line, no temporary file, older output intact."""
    before = snapshot(work)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlaverif.models",
            "pack",
            "nvdla.feature",
            "-i",
            str(work / "x.npy"),
            "-o",
            str(work / "old.bin"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert snapshot(work) == before


def test_big_endian_npy_packs_to_the_same_bytes(work, capsys):
    x = np.arange(6, dtype="<u2").reshape(2, 3) * 257
    np.save(work / "le.npy", x)
    np.save(work / "be.npy", x.astype(">u2"))
    np.save(work / "fo.npy", np.asfortranarray(x))
    for src in ("le", "be", "fo"):
        assert main(["pack", "onednn.ba", "-i", str(work / f"{src}.npy"), "-o", str(work / f"{src}.bin")]) == 0
    assert (work / "le.bin").read_bytes() == (work / "be.bin").read_bytes() == (work / "fo.bin").read_bytes()
    assert (work / "le.bin").read_bytes() == b"".join(int(v).to_bytes(2, "little") for v in x.T.reshape(-1))


def test_info_describes_a_tensor_the_rtl_cannot_read(capsys):
    """The layout is fine, only the descriptor cannot be formed: info says why."""
    import json

    assert main(["info", "onednn.abcd", "--shape", "1,8,2,5", "--dtype", "int8"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["descriptor"] is None and "atom" in doc["descriptor_unavailable"]
    assert doc["surfaces"][0]["bytes"] == 80 if "surfaces" in doc else doc["bytes"] == 80


words = st.one_of(
    st.text(alphabet="0123456789,x.-=abcINFnan ", max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["inf", "nan", "1.5", "", "0x", "-1"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(ALL_FORMATS), data=st.data())
def test_random_cli_arguments_fail_cleanly_or_succeed(tmp_path_factory, name, data):
    work = tmp_path_factory.mktemp("cli")
    shape, dt = valid_cases(name)[0]
    np.save(work / "x.npy", np.zeros(shape, dt))
    opts = []
    for o in data.draw(st.lists(st.sampled_from(option_names(name) + ["bogus"]), max_size=2, unique=True)):
        opts += ["--opt", f"{o}={data.draw(words)}"]
    cmd = data.draw(st.sampled_from(("pack", "unpack", "info")))
    shape_arg = data.draw(st.one_of(st.just(",".join(map(str, shape))), words))
    dtype_arg = data.draw(st.one_of(st.just(dt), words))
    argv = {
        "pack": ["pack", name, "-i", work / "x.npy", "-o", work / "o.bin"],
        "unpack": [
            "unpack",
            name,
            "-i",
            work / "x.npy",
            "-o",
            work / "o.npy",
            "--shape",
            shape_arg,
            "--dtype",
            dtype_arg,
        ],
        "info": ["info", name, "--shape", shape_arg, "--dtype", dtype_arg],
    }[cmd] + opts
    before = snapshot(work)
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main([str(a) for a in argv])
    assert status in (0, 2)
    if status == 2:
        assert len(err.getvalue().strip().splitlines()) == 1
        assert snapshot(work) == before
