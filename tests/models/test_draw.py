"""`python -m dlaverif.models draw` and its mapping (models.draw): the element-to-address map a drawing uses is checked
against addresses computed here from the specs' formulas (not pixels); every format of the registry draws;
the CLI refuses bad input with exit status 2 and one line, and writes atomically."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dlaverif.models.__main__ import main
from dlaverif.models.core.registry import families, format_names, get_format, pack, unpack
from dlaverif.models.draw.mapping import ELEMENT, META, PAD, SHARED, TAIL, color_key, element_map

ROOT = Path(__file__).resolve().parents[2]
ALL_FORMATS = format_names() + [e for fam in families().values() for e in fam["examples"]]
# the logical view on one format of each kind (it shares the mapping with the memory view)
LOGICAL = {
    "nvdla.feature",
    "nvdla.weight.dc",
    "nvdla.pixel.T_Y8___U8V8_N444",
    "nvdla.pixel.T_A2B10G10R10",
    "mace.image.channel_major",
    "onednn.nChw8c",
    "nvdla.weight.deconv",
    "nvdla.bn",
}


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "dlaverif.models", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def grid(shape):
    return np.indices(shape, dtype=np.int64)


# --- the mapping against the specs' formulas ----------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype,opts", [("int16", {}), ("int8", {}), ("int16", {"line_stride": 128, "surface_stride": 320})]
)
def test_feature_cube_map_is_the_clarified_formula(dtype, opts):
    # clarifications 1.2: addr = (c div epa)*SURF_STRIDE + h*LINE_STRIDE + w*32 + (c mod epa)*e
    n, c, h, w = shape = (1, 20, 2, 3)
    e = np.dtype(dtype).itemsize
    epa = 32 // e
    ls, ss = opts.get("line_stride", w * 32), opts.get("surface_stride", h * opts.get("line_stride", w * 32))
    m = element_map("nvdla.feature", shape, dtype, **opts)
    _, cc, hh, ww = grid(shape)
    assert np.array_equal(m.address, (cc // epa) * ss + hh * ls + ww * 32 + (cc % epa) * e)
    assert (m.nbytes == e).all()
    # the worked example: int16 (w=2, h=1, c=17) -> 354 (packed)
    if dtype == "int16" and not opts:
        assert m.address[0, 17, 1, 2] == 354
        assert (m.byte_kind == PAD).sum() + (m.byte_kind == TAIL).sum() == 12 * 6 * 2  # channels 20..31


@pytest.mark.parametrize(
    "shape,dtype", [((3, 70, 1, 2), "float16"), ((18, 70, 1, 2), "int16"), ((40, 10, 2, 3), "int8")]
)
def test_dc_weight_group_map_is_the_clarified_formula(shape, dtype):
    # clarifications 3: off = g*kpg*R*S*C + b*R*S*Kg*64 + (h*S + w)*Kg*cw + kk*cw + (c mod 64), bytes = off*e
    k, c, r, s = shape
    e = np.dtype(dtype).itemsize
    kpg = 32 // e
    kk_, cc, hh, ww = grid(shape)
    g, kk, b = kk_ // kpg, kk_ % kpg, cc // 64
    kg = np.minimum(kpg, k - g * kpg)
    cw = np.minimum(64, c - 64 * b)
    off = g * kpg * r * s * c + b * r * s * kg * 64 + (hh * s + ww) * kg * cw + kk * cw + cc % 64
    m = element_map("nvdla.weight.dc", shape, dtype)
    assert np.array_equal(m.address, off * e)
    assert m.surfaces[0].nbytes % 128 == 0 and m.surfaces[0].nbytes - k * c * r * s * e < 128


def test_image_weight_pre_extension_map():
    # clarifications 4.1 (seed Fig. 14): 5x5x3 int16 kernels -> 1x5x15, c' = w*Ci + c, then the DC mapping with
    # C := S*Ci, S := 1 (one group of 2 kernels, one 64-element block): off = h*Kg*C' + k*C' + c'
    shape = k, c, r, s = (2, 3, 5, 5)
    kk, cc, hh, ww = grid(shape)
    cext = s * c
    off = hh * k * cext + kk * cext + (ww * c + cc)
    m = element_map("nvdla.weight.image", shape, "int16")
    assert np.array_equal(m.address, off * 2)


def test_two_plane_pixel_map():
    # clarifications 2.1/2.2: T_Y8___U8V8_N444, plane 0 = Y (1 B/pixel), plane 1 = chroma pairs (2 B/pixel),
    # U at byte 1 and V at byte 0 of the pair; strides roundup32(W*Bpp); plane 1 drawn after plane 0 (align 32)
    h, w = 2, 5
    m = element_map("nvdla.pixel.T_Y8___U8V8_N444", (h, w, 3), "uint8")
    assert [(s.name, s.base, s.nbytes) for s in m.surfaces] == [("plane0", 0, 64), ("plane1", 64, 64)]
    y, x = np.indices((h, w))
    assert np.array_equal(m.address[..., 0], y * 32 + x)
    assert np.array_equal(m.address[..., 1], 64 + y * 32 + 2 * x + 1)
    assert np.array_equal(m.address[..., 2], 64 + y * 32 + 2 * x)
    # with an x offset (Table 33): plane 0 moves by x_offset pixels, plane 1 by (x_offset*2) mod 32 bytes
    m = element_map("nvdla.pixel.T_Y8___U8V8_N444", (h, w, 3), "uint8", x_offset=20)
    p1 = m.surfaces[1].base
    assert np.array_equal(m.address[..., 0], y * m.surfaces[0].nbytes // h + 20 + x)
    assert np.array_equal(m.address[..., 2] - p1, y * (m.surfaces[1].nbytes // h) + 8 + 2 * x)


def test_mace_channel_major_map():
    # mace-clarifications 4: image [W*cdiv4(C), N*H], pixel (x, y) lane k holds E(n,h,w,c) with
    # x = (c // 4)*W + w, y = n*H + h, k = c % 4; pixels row-major, 4 elements each
    shape = n, h, w, c = (1, 2, 3, 5)
    e = 2
    nn, hh, ww, cc = grid(shape)
    width = w * ((c + 3) // 4)
    off = (((nn * h + hh) * width) + (cc // 4) * w + ww) * 4 + cc % 4
    m = element_map("mace.image.channel_major", shape, "float16")
    assert np.array_equal(m.address, off * e)
    assert m.total_bytes == width * n * h * 4 * e
    assert (m.byte_kind == ELEMENT).sum() == n * h * w * c * e


def test_onednn_nchw8c_with_padding_map():
    # seed 002 "Blocked layout": nChw8c offset = ((n*Cb + c//8)*H + h)*W*8 + w*8 + c%8, C padded to Cb*8
    shape = n, c, h, w = (2, 12, 2, 3)
    cb = 2
    nn, cc, hh, ww = grid(shape)
    off = ((nn * cb + cc // 8) * h + hh) * w * 8 + ww * 8 + cc % 8
    m = element_map("onednn.nChw8c", shape, "float32")
    assert np.array_equal(m.address, off * 4)
    assert (m.byte_kind != ELEMENT).sum() == n * (cb * 8 - c) * h * w * 4  # the padded channels 12..15


@pytest.mark.parametrize(
    "name", ["nvdla.weight.dc", "nvdla.eltwise", "onednn.OIhw4i16o4i", "mace.image.conv_filter", "nvdla.weight.deconv"]
)
def test_map_agrees_with_the_models_unpack(name):
    # a second, independent view: the byte at each element's address, read back from a packed random tensor,
    # is that element's first byte (pack of random values; unpack restores them)
    ex = get_format(name).example
    opts = dict(ex.opts)
    m = element_map(name, ex.shape, ex.dtype, **opts)
    rng = np.random.default_rng(1)
    t = rng.integers(1, 100, size=ex.shape).astype(ex.dtype)
    img = pack(name, t, **opts).placed(0)
    assert np.array_equal(unpack(name, img, ex.shape, ex.dtype, **opts), t)
    memory = np.zeros(max(s.end for s in img.surfaces), dtype=np.uint8)
    for s in img.surfaces:
        memory[s.base : s.end] = s.data
    first = t.view(np.uint8).reshape(*ex.shape, t.dtype.itemsize)[..., 0]
    assert np.array_equal(memory[m.address], first)


def test_sparse_weights_show_masks_as_metadata_and_bit_fields_as_shared():
    m = element_map("nvdla.weight.dc", (3, 70, 1, 2), "float16", compress=True)
    names = [s.name for s in m.surfaces]
    assert names == ["weight", "wmb", "wgs"]
    for i, s in enumerate(m.surfaces):
        kinds = set(np.unique(m.byte_kind[m.byte_surface == i]).tolist())
        assert (kinds == {META}) == (s.name != "weight"), (s.name, kinds)
    p = element_map("nvdla.pixel.T_A2B10G10R10", (1, 2, 4), "uint16")
    # R = bits 9:0 of the LE word: byte 0 is R's alone, byte 1 shares R and G
    assert p.byte_owner[0] == 0 and p.byte_kind[1] == SHARED
    assert p.byte_owner_lo[1] == 0 and p.byte_owner_hi[1] >= 1


def test_color_key_groups():
    m = element_map("nvdla.feature", (1, 20, 2, 3), "int8")
    groups, title = color_key(m, "C/atom")
    assert title == "C/32" and groups.max() == 0
    groups, title = color_key(m, "c/8")
    assert title == "C/8" and np.array_equal(groups[0, :, 0, 0], np.arange(20) // 8)


# --- every registered format draws -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_FORMATS)
def test_every_registered_format_draws_svg_and_png(name, tmp_path):
    ex = get_format(name).example
    assert ex is not None, f"{name}: no example in the registry"
    for view in ("memory", "logical") if name in LOGICAL else ("memory",):
        svg, png = tmp_path / f"{view}.svg", tmp_path / f"{view}.png"
        assert main(["draw", name, "-o", str(svg), "--view", view]) == 0
        assert main(["draw", name, "-o", str(png), "--view", view]) == 0
        assert svg.stat().st_size > 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        head = svg.read_text()[:400]
        assert head.startswith("<?xml") and "<svg" in svg.read_text()
    assert {p.name for p in tmp_path.iterdir()} >= {"memory.png", "memory.svg"}


def test_every_name_of_formats_is_covered():
    listed = cli("formats").stdout
    for line in listed.splitlines():
        name = line.split()[0]
        if not name.endswith("<tag>"):
            assert name in ALL_FORMATS


# --- the CLI --------------------------------------------------------------------------------------------------


def test_range_draws_only_that_window(tmp_path):
    out = tmp_path / "w.svg"
    r = cli("draw", "nvdla.feature", "--shape", "1,64,8,8", "--dtype", "int8", "--range", "0x100:0x140", "-o", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "0x0100" in text and "0x0120" in text and "0x00e0" not in text and "0x0140" not in text


def test_row_and_color_options(tmp_path):
    out = tmp_path / "r.svg"
    r = cli("draw", "nvdla.feature", "--row", "line", "--color-by", "H", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "96 bytes per row" in out.read_text() and "H=1" in out.read_text()


@pytest.mark.parametrize(
    "args,needle",
    [
        (["draw", "nvdla.nope", "-o", "{d}/x.svg"], "unknown format"),
        (["draw", "nvdla.feature", "--shape", "1,64,16,16", "--dtype", "int8", "-o", "{d}/x.svg"], "--range"),
        (["draw", "nvdla.feature", "--range", "5:3", "-o", "{d}/x.svg"], "--range"),
        (["draw", "nvdla.feature", "--range", "abc", "-o", "{d}/x.svg"], "--range"),
        (["draw", "nvdla.feature", "--range", "0x1000:0x1010", "-o", "{d}/x.svg"], "no byte"),
        (
            [
                "draw",
                "nvdla.feature",
                "--shape",
                "1,64,16,16",
                "--dtype",
                "int8",
                "--range",
                "0:8192",
                "-o",
                "{d}/x.svg",
            ],
            "smaller window",
        ),
        (["draw", "nvdla.feature", "-o", "{d}/missing/x.svg"], "parent"),
        (["draw", "nvdla.feature", "-o", "{d}/x.pdf"], ".svg or .png"),
        (["draw", "nvdla.feature", "--color-by", "Q", "-o", "{d}/x.svg"], "color-by"),
        (["draw", "nvdla.feature", "--row", "wide", "-o", "{d}/x.svg"], "--row"),
        (["draw", "nvdla.feature", "--shape", "1,20,2,3", "--dtype", "int32", "-o", "{d}/x.svg"], "int32"),
        (["draw", "onednn.nchw", "--row", "line", "-o", "{d}/x.svg"], "line_stride"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, args, needle):
    r = cli(*[a.format(d=tmp_path) for a in args])
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == []  # nothing written


def test_existing_folder_is_refused_and_untouched(tmp_path):
    folder = tmp_path / "map.svg"
    folder.mkdir()
    (folder / "keep").write_text("x")
    r = cli("draw", "nvdla.feature", "-o", folder)
    assert r.returncode == 2 and "existing folder" in r.stderr and len(r.stderr.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["map.svg"] and [p.name for p in folder.iterdir()] == ["keep"]


def test_failed_render_leaves_no_temp_file_and_keeps_the_old_output(tmp_path, monkeypatch, capsys):
    import dlaverif.models.draw.render as render

    out = tmp_path / "map.svg"
    out.write_text("old")

    def boom(*args, **kwargs):
        Path(args[3]).write_text("partial")
        raise OSError("disk full")

    monkeypatch.setattr(render, "render_memory", boom)
    assert main(["draw", "nvdla.feature", "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == "error: disk full"
    assert [p.name for p in tmp_path.iterdir()] == ["map.svg"] and out.read_text() == "old"
