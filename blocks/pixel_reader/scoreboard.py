"""Pixel-reader scoreboard: every job against the numpy models.

Expected values come only from the models: the model packs the picture (``models.pack``, in the sequence), the
converter is ``PixelDescriptor.convert`` (``models.nvdla.pixel.convert_pixels``), each pixel's atom is the NVDLA
feature atom of its converted channels (``models.pack("nvdla.feature", ...)`` pads the channel group with zeros),
the error bits are ``PixelDescriptor.errors(AXI_ADDR_W)``, and the SATURATED count is recomputed from the
model's own arithmetic (``round_shift``, ``saturate``) as the components whose value was clamped.

A mismatch report names the format, the pixel (h, w), the channel, the plane address of the pixel, the raw and
converted values, expected and actual bytes, and the command that reproduces the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from dlaverif import models
from dlaverif.models.nvdla.pixel import msb_aligned_values
from dlaverif.models.nvdla.precision import round_shift, saturate
from dlaverif.platform import (
    Expectation,
    JobScoreboard,
    bus_problems,
    job_problems,
    sent_problems,
    status_problems,
    unit_rows,
    unit_stream_problems,
)
from dlaverif.platform.mismatch_map import DiffRows

from .footprint import first_fault_pixel, pixel_addresses
from .items import Kind, PixelItem
from .pictures import Picture
from .registers import ERRORS, REGS

ATOM = 32


@dataclass
class Expected(Expectation):
    """The model's answer for one job."""

    atoms: np.ndarray  # (k, 32) uint8
    coords: np.ndarray  # (k, 2) h, w
    saturated: np.ndarray  # (k,) clamped components per pixel
    error: int  # ERROR register
    max_px: int  # pixels allowed on the stream (a prefix of `atoms`)
    exact: bool  # True: exactly `max_px` pixels, the last with TLAST
    lines: int  # LINES expected when exact


def feature_atoms(converted: np.ndarray) -> np.ndarray:
    """(H*W, 32) bytes: each pixel's converted channels as one NVDLA feature atom (model ``nvdla.feature``)."""
    h, w, _ = converted.shape
    image = models.pack("nvdla.feature", np.ascontiguousarray(converted.transpose(2, 0, 1)[None]))
    return np.asarray(image.data(), np.uint8).reshape(h * w, ATOM)


def converter_products(pic: Picture) -> Optional[np.ndarray]:
    """(H, W, C) ``(x17 - offset) * scale`` of every component before the shift (Equation 1 with the 17-bit
    widening, the mean or the offset, as ``models.nvdla.pixel.input_convert`` does it), or None when the converter
    does not compute (fp16 components, CVT_EN = 0)."""
    d, fmt = pic.desc, pic.fmt
    if fmt.fp16 or not d.cvt_en:
        return None
    bits = fmt.component_bits
    raw = msb_aligned_values(pic.name, pic.tensor).astype(np.int64) & ((1 << bits) - 1)
    x = raw - ((raw >> (bits - 1)) << bits) if d.sign_override else raw
    off = np.array(d.mean[: fmt.channels], np.int64) if d.mean_en else np.int64(d.cvt_offset)
    return (x - off) * np.int64(d.cvt_scale)


def saturated_components(pic: Picture) -> np.ndarray:
    """(H, W) count of components the converter clamps (int17, the int8/int16 range, |x| >= 65520 to fp16), from
    the model's arithmetic (``round_shift``, ``saturate``)."""
    t = converter_products(pic)
    if t is None:
        return np.zeros(pic.shape[:2], np.int64)
    y = round_shift(t, pic.desc.cvt_truncate)
    y17 = saturate(y, "int17")
    clamped = y != y17
    name = pic.desc.precision_name
    if name == "fp16":
        clamped |= np.abs(y17) >= 65520
    else:
        clamped |= y17 != saturate(y17, str(name))
    return clamped.sum(axis=-1)


def expected_for(item: PixelItem, addr_bits: int) -> Expected:
    """What a correct reader does with ``item`` (from the models only)."""
    d = item.desc
    assert d is not None, "every pixel job programs a descriptor"
    if item.kind is Kind.ILLEGAL:
        error = ERRORS.word(d.errors(addr_bits))
        return Expected.nothing(error, atoms=np.zeros((0, ATOM), np.uint8), coords=np.zeros((0, 2), np.int64))
    pic = item.picture
    assert pic is not None, "every legal pixel job (PICTURE, BUS_ERROR, RESET) has its picture"
    atoms = feature_atoms(d.convert(pic.tensor))
    hh, ww = np.meshgrid(np.arange(d.height), np.arange(d.width), indexing="ij")
    coords = np.stack([hh.reshape(-1), ww.reshape(-1)], axis=1)
    sat = saturated_components(pic).reshape(-1)
    error, max_px, exact = 0, atoms.shape[0], True
    if item.kind is Kind.RESET:
        exact = False
    if item.kind is Kind.BUS_ERROR:
        error = ERRORS.of_faults(item.faults)
        first = first_fault_pixel(d, pic.fmt, item.faults)
        max_px, exact = (first if first is not None else max_px), False
    return Expected(atoms, coords, sat, error, max_px, exact, d.height)


class PixelScoreboard(JobScoreboard):
    """Checks each finished pixel job against the models (pairing, reporting and end-of-test checks are the
    platform's ``JobScoreboard``)."""

    counted = "pixels"

    def expected(self, item: PixelItem) -> Expected:
        return expected_for(item, self.addr_bits)

    def compare(self, item: PixelItem, exp: Expected) -> list[str]:
        self.units_checked += len(item.response().beats)
        return check_job(item, exp)

    def details(self, item: PixelItem) -> list[str]:
        return [f"desc: {item.desc}", f"knobs: {item.knobs}"]

    def diff_rows(self, item: PixelItem, exp: Expected) -> Optional[DiffRows]:
        return pixel_rows(item, exp)


def check_job(item: PixelItem, exp: Expected) -> list[str]:
    """Everything wrong with a finished job (``item.result``) against the model's answer ``exp``; a reset clears
    ERROR and PIXELS."""
    return job_problems(item, exp, "pixel", REGS, _check_done, _reset_prefix, cleared=("error", "pixels"))


def _check_done(item: PixelItem, exp: Expected) -> list[str]:
    res = item.response()
    st = res.status
    out = status_problems(st, REGS, exp.error)
    out += _check_stream(item, exp)
    n = len(res.beats)
    out += sent_problems(st, "PIXELS", n, "pixel", item.kind is Kind.PICTURE)
    k = min(n, exp.max_px)
    want_sat = int(exp.saturated[:k].sum())
    if st.saturated != want_sat:
        out.append(f"SATURATED={st.saturated}, the model clamps {want_sat} components in the {k} pixels sent")
    if exp.exact and st.lines != exp.lines:
        out.append(f"LINES={st.lines}, expected {exp.lines}")
    out += bus_problems(
        res, st.beats, item.kind is Kind.ILLEGAL, item.kind is Kind.PICTURE, item.kind is Kind.BUS_ERROR
    )
    out += res.violations
    return out


def _reset_prefix(item: PixelItem, exp: Expected) -> list[str]:
    """What crossed the stream before the reset: a correct prefix."""
    return [p for p in _check_stream(item, exp) if "TLAST" not in p]


def _pixel_report(item: PixelItem, exp: Expected, i: int, j: int, got: np.ndarray) -> list[str]:
    """Where pixel ``i`` differs first (byte ``j``): format, (h, w), channel, plane address, values."""
    pic, d = item.picture, item.desc
    assert pic is not None and d is not None, "a pixel differs only in a legal job, which has its picture"
    fmt = pic.fmt
    h, w = (int(v) for v in exp.coords[i])
    eb = 1 if d.out_precision == 0 else 2
    c = j // eb
    addrs = [int(a[h, w]) for a in pixel_addresses(d, fmt)]
    where = ", ".join(f"plane {p} @0x{a:x}" for p, a in enumerate(addrs))
    if c < fmt.channels:
        plane = next(f for p in fmt.planes for f in p.fields if f.channel == c)
        raw = int(np.asarray(pic.tensor[h, w, c]).view(f"u{pic.tensor.dtype.itemsize}"))
        conv = d.convert(pic.tensor[h : h + 1, w : w + 1])[0, 0, c]
        what = (
            f"channel {c} ({plane.letter}) raw 0x{raw:x} -> {d.precision_name} {conv.item()}: expected "
            f"0x{int.from_bytes(bytes(exp.atoms[i, c * eb : (c + 1) * eb]), 'little'):0{2 * eb}x}, actual "
            f"0x{int.from_bytes(bytes(got[i, c * eb : (c + 1) * eb]), 'little'):0{2 * eb}x}"
        )
    else:
        what = f"padding byte {j} (format has {fmt.channels} channels): expected 0x00, actual 0x{got[i, j]:02x}"
    return [f"pixel #{i} (h,w)=({h},{w}) of {exp.max_px} [{pic.name}] differs: {what}; {where}"]


def _check_stream(item: PixelItem, exp: Expected) -> list[str]:
    def report(i: int, j: int, got: np.ndarray, differ: int) -> tuple[list[str], list[str]]:
        return _pixel_report(item, exp, i, j, got) + [f"({differ} pixel(s) differ)"], []

    beats = item.response().beats
    return unit_stream_problems(beats, "pixel", "h,w", (16, 0), exp, exp.atoms, exp.max_px, ATOM, lambda i: "", report)


def pixel_rows(item: PixelItem, exp: Expected) -> Optional[DiffRows]:
    """The mismatch map's rows: one per pixel of the stream (its 32-byte feature atom), labelled with its (h, w);
    a byte by its pixel, channel (or padding) and byte. None when no pixel is comparable."""
    d = item.desc
    if d is None:
        return None
    eb = 1 if d.out_precision == 0 else 2
    channels = item.picture.fmt.channels if item.picture is not None else ATOM // eb

    def where(i: int) -> str:
        return "(h,w)=({},{})".format(*(int(v) for v in exp.coords[i]))

    def byte(i: int, j: int) -> str:
        c = j // eb
        what = f"channel {c}" if c < channels else "padding"
        return f"pixel #{i} {where(i)} {what} byte {j}"

    return unit_rows(item, "pixel", exp.atoms, exp.max_px, ATOM, lambda i: f"pixel #{i} {where(i)}", byte)
