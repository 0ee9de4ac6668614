"""`python -m dlaverif.models`: the command line round-trips through files and fails cleanly (exit 2, one line)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "dlaverif.models", *map(str, args)],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_formats_lists_every_family_and_the_spec_names():
    out = cli("formats")
    assert out.returncode == 0, out.stderr
    for name in (
        "nvdla.feature",
        "nvdla.pixel.T_R8",
        "nvdla.pixel.T_Y16___V16U16_N444",
        "nvdla.weight.dc",
        "nvdla.weight.image",
        "nvdla.weight.winograd",
        "nvdla.weight.deconv",
        "nvdla.bias.channel",
        "nvdla.bias.element",
        "nvdla.prelu",
        "nvdla.bn",
        "nvdla.eltwise",
        "onednn.",
        "mace.image.channel_major",
        "mace.image.height_major",
        "mace.image.width_major",
        "mace.image.conv_filter",
        "mace.image.dw_filter",
        "mace.image.arg1d",
    ):
        assert name in out.stdout, name
    assert sum(line.startswith("nvdla.pixel.") for line in out.stdout.splitlines()) == 36
    doc = json.loads(cli("formats", "--json").stdout)
    assert {f["name"] for f in doc["formats"]} >= {"nvdla.feature", "mace.image.arg1d"}


def test_pack_unpack_round_trip_through_files(tmp_path):
    x = np.arange(20 * 3 * 2, dtype=np.int16).reshape(1, 20, 3, 2)
    np.save(tmp_path / "x.npy", x)
    out = cli("pack", "nvdla.feature", "-i", tmp_path / "x.npy", "-o", tmp_path / "x.bin", "--opt", "line_stride=96")
    assert out.returncode == 0, out.stderr
    raw = (tmp_path / "x.bin").read_bytes()
    # clarifications 1.2: int16, W=2 (here), C=20: element (w, h, c) at (c//16)*SS + h*LS + w*32 + (c%16)*2
    ls, ss = 96, 96 * 3
    assert len(raw) == 2 * ss
    n, c, h, w = 0, 17, 2, 1
    off = (c // 16) * ss + h * ls + w * 32 + (c % 16) * 2
    assert int.from_bytes(raw[off : off + 2], "little", signed=True) == x[n, c, h, w]
    out = cli(
        "unpack",
        "nvdla.feature",
        "-i",
        tmp_path / "x.bin",
        "-o",
        tmp_path / "y.npy",
        "--shape",
        "1,20,3,2",
        "--dtype",
        "int16",
        "--opt",
        "line_stride=96",
    )
    assert out.returncode == 0, out.stderr
    assert np.array_equal(np.load(tmp_path / "y.npy"), x)


def test_multi_surface_format_writes_a_folder(tmp_path):
    rng = np.random.default_rng(3)
    w = rng.integers(-128, 128, (33, 5, 3, 3), dtype=np.int8)
    w[rng.random(w.shape) < 0.5] = 0
    np.save(tmp_path / "w.npy", w)
    assert (
        cli("pack", "nvdla.weight.dc", "-i", tmp_path / "w.npy", "-o", tmp_path / "w", "--opt", "compress=1").returncode
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "w").iterdir()) == ["weight.bin", "wgs.bin", "wmb.bin"]
    assert len((tmp_path / "w" / "wgs.bin").read_bytes()) % 4 == 0
    out = cli(
        "unpack",
        "nvdla.weight.dc",
        "-i",
        tmp_path / "w",
        "-o",
        tmp_path / "v.npy",
        "--shape",
        "33,5,3,3",
        "--dtype",
        "int8",
        "--opt",
        "compress=true",
    )
    assert out.returncode == 0, out.stderr
    assert np.array_equal(np.load(tmp_path / "v.npy"), w)


def test_info_is_json_with_descriptor():
    out = cli("info", "onednn.nChw8c", "--shape", "2,17,5,4", "--dtype", "f32", "--base", "0x1000")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    d = doc["descriptor"]
    # MKL-DNN article: C=17 pads to 24; strides n = 24*H*W, C-block = H*W*8, h = W*8, w = 8 (elements)
    assert (d["atom_bytes"], d["count_c"], d["count_h"], d["count_w"], d["count_n"]) == (32, 3, 5, 4, 2)
    assert (d["stride_h"], d["stride_c"], d["stride_n"]) == (4 * 8 * 4, 5 * 4 * 8 * 4, 24 * 5 * 4 * 4)
    assert d["base"] == 0x1000


@pytest.mark.parametrize(
    "args, rule",
    [
        (("info", "nvdla.feature", "--shape", "1,3,4,4", "--dtype", "float32"), "dtype"),
        (("info", "nvdla.feature", "--shape", "1,3,4,4", "--dtype", "int8", "--opt", "line_stride=100"), "line_stride"),
        (("info", "nvdla.pixel.T_R8", "--shape", "4,4,1", "--dtype", "uint8", "--opt", "x_offset=32"), "x_offset"),
        (("info", "nvdla.feature", "--shape", "1,3,4,4", "--dtype", "int8", "--opt", "nonsense=1"), "option.unknown"),
        (("info", "no.such.format", "--shape", "1", "--dtype", "int8"), "format.unknown"),
        (("info", "nvdla.feature", "--shape", "1,a", "--dtype", "int8"), "--shape"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, rule):
    out = cli(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and rule in lines[0], out.stderr
    assert out.stdout == ""


def test_failed_pack_leaves_no_output(tmp_path):
    np.save(tmp_path / "x.npy", np.zeros((1, 3, 4, 4), np.float32))
    out = cli("pack", "nvdla.feature", "-i", tmp_path / "x.npy", "-o", tmp_path / "x.bin")
    assert out.returncode == 2 and "dtype" in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npy"]


def test_short_buffer_is_a_format_error(tmp_path):
    (tmp_path / "short.bin").write_bytes(bytes(100))
    out = cli(
        "unpack",
        "nvdla.feature",
        "-i",
        tmp_path / "short.bin",
        "-o",
        tmp_path / "y.npy",
        "--shape",
        "1,20,3,2",
        "--dtype",
        "int16",
    )
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "y.npy").exists()
