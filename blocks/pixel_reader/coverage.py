"""Functional coverage of the pixel reader (cocotb-coverage), sampled on every checked job.

Cover points (names under ``pixel_reader.``): job kind; format; the issue's cross format x precision x x-offset
edge x saturation direction (``cross``: only the legal (format, precision) pairs of Table 29; x offset at either
end of Table 33's range; the converter clamped a component high or low - fp16 formats never clamp: their bin is
``none``); format x precision; x offset (zero, max, between); width and height edges (1, mid-chunk end, many
chunks); strides (plane 0 gapped, plane 1 gapped, plane strides differ); converter features (CVT_EN off, sign
override, mean, rounding tie hit, truncate > 0); fp16 specials seen (NaN, INF, denormal, -0.0); error bits seen,
alone and together; bus errors by response and plane; timing knobs.

The database is process-wide; :func:`export` writes it as XML into the run directory (``fcov_pixel_reader.xml``).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from cocotb_coverage.coverage import CoverPoint

from dlaverif.models.nvdla.pixel import PIXEL_FORMATS
from dlaverif.models.nvdla.precision import round_shift
from dlaverif.models.pixel_desc import ERROR_RULES
from dlaverif.platform import CoverageSubscriber
from dlaverif.platform.coverage import Covergroups, job_fields, job_points

from .items import Kind, PixelItem
from .pictures import FORMATS, legal_precisions
from .registers import REGS
from .scoreboard import converter_products

XML_NAME = "fcov_pixel_reader.xml"
P = "pixel_reader"
PRECISIONS = ("int8", "int16", "fp16")
ERROR_NAMES = list(ERROR_RULES) + ["bus_slverr", "bus_decerr"]


def cross_bins() -> list[tuple[str, str, str, str]]:
    """(format, precision, x-offset edge, saturation direction) bins of the issue's cross."""
    out = []
    for name in FORMATS:
        fmt = PIXEL_FORMATS[name]
        for p in legal_precisions(fmt):
            for edge in ("x_min", "x_max"):
                for sat in ("none",) if fmt.fp16 else ("high", "low"):
                    out.append((name, PRECISIONS[p], edge, sat))
    return out


def fmt_prec_bins() -> list[tuple[str, str]]:
    return [(n, PRECISIONS[p]) for n in FORMATS for p in legal_precisions(PIXEL_FORMATS[n])]


def _member(v, b) -> bool:
    return b in v


def saturation_directions(item: PixelItem) -> set[str]:
    """``high``/``low``: some component was clamped at the top / bottom of the output range (model arithmetic);
    ``none`` when nothing was clamped."""
    pic = item.picture
    assert pic is not None, "sampled only for PICTURE jobs, which have their picture"
    t = converter_products(pic)
    if t is None:
        return {"none"}
    d = pic.desc
    y = round_shift(t, d.cvt_truncate)
    hi = {"int8": 127, "int16": 32767, "fp16": 65519}[str(d.precision_name)]
    out = ({"high"} if (y > hi).any() else set()) | (
        {"low"} if (y < -hi - 1 if hi != 65519 else y < -hi).any() else set()
    )
    return out or {"none"}


def _ties(item: PixelItem) -> bool:
    """A component's (x - offset) * scale sat exactly half-way between two results of the shift."""
    pic = item.picture
    assert pic is not None, "sampled only for PICTURE jobs, which have their picture"
    t = converter_products(pic)
    s = pic.desc.cvt_truncate
    return t is not None and s > 0 and bool(((np.abs(t) & ((1 << s) - 1)) == (1 << (s - 1))).any())


def _build():
    where = [(r, p) for r in ("SLVERR", "DECERR") for p in ("plane0", "plane1")]
    return job_points(P, [k.value for k in Kind], "pixel", list(ERROR_RULES), where) + [
        CoverPoint(f"{P}.format", xf=lambda s: s.fmt, bins=list(FORMATS)),
        CoverPoint(f"{P}.format_x_precision", xf=lambda s: s.fmt_prec, bins=fmt_prec_bins()),
        CoverPoint(f"{P}.cross", xf=lambda s: s.cross, rel=_member, bins=cross_bins(), inj=False),
        CoverPoint(f"{P}.x_offset", xf=lambda s: s.xoff, bins=["zero", "max", "between"]),
        CoverPoint(
            f"{P}.width", xf=lambda s: s.wtags, rel=_member, bins=["one", "mid_chunk_end", "many_chunks"], inj=False
        ),
        CoverPoint(f"{P}.height", xf=lambda s: s.htag, bins=["one", "several"]),
        CoverPoint(
            f"{P}.strides", xf=lambda s: s.stags, rel=_member, bins=["gap0", "gap1", "planes_differ"], inj=False
        ),
        CoverPoint(
            f"{P}.converter",
            xf=lambda s: s.ctags,
            rel=_member,
            bins=["cvt_off", "signed", "mean", "truncate", "tie"],
            inj=False,
        ),
        CoverPoint(
            f"{P}.fp16", xf=lambda s: s.fp16, rel=_member, bins=["nan", "inf", "denormal", "neg_zero"], inj=False
        ),
        CoverPoint(f"{P}.errors_seen", xf=lambda s: s.errors, rel=_member, bins=ERROR_NAMES, inj=False),
    ]


_COVERGROUPS = Covergroups(_build)


def sample_item(item: PixelItem) -> None:
    """Sample one checked job."""
    s = SimpleNamespace(
        **job_fields(item, REGS, "pixel", lambda item: item.fault_where.split()[0]),
        fmt=None,
        fmt_prec=None,
        cross=set(),
        xoff=None,
        wtags=set(),
        htag=None,
        stags=set(),
        ctags=set(),
        fp16=set(),
    )
    pic = item.picture
    if pic is not None and item.kind in (Kind.PICTURE, Kind.BUS_ERROR):
        d, fmt = pic.desc, pic.fmt
        s.fmt, s.fmt_prec = pic.name, (pic.name, d.precision_name)
        s.xoff = "zero" if d.x_offset == 0 else "max" if d.x_offset == fmt.x_offset_max else "between"
        if item.kind is Kind.PICTURE and d.x_offset in (0, fmt.x_offset_max):
            edge = "x_min" if d.x_offset == 0 else "x_max"
            s.cross = {(pic.name, d.precision_name, edge, sat) for sat in saturation_directions(item)}
            if fmt.x_offset_max == 0:
                s.cross |= {(pic.name, d.precision_name, "x_max", sat) for sat in saturation_directions(item)}
        per_chunk = 32 // fmt.planes[0].bpp
        end = (d.x_offset + d.width) % per_chunk
        s.wtags = (
            ({"one"} if d.width == 1 else set())
            | ({"mid_chunk_end"} if end else set())
            | ({"many_chunks"} if d.x_offset + d.width > 2 * per_chunk else set())
        )
        s.htag = "one" if d.height == 1 else "several"
        need0 = -(-(d.x_offset + d.width) * fmt.planes[0].bpp // 32) * 32
        s.stags = {"gap0"} if d.line_stride0 > need0 else set()
        if fmt.semi_planar:
            bpp1 = fmt.planes[1].bpp
            need1 = -(-((d.x_offset * bpp1) % 32 + d.width * bpp1) // 32) * 32
            s.stags |= ({"gap1"} if d.line_stride1 > need1 else set()) | (
                {"planes_differ"} if d.line_stride1 != d.line_stride0 else set()
            )
        if not fmt.fp16:
            s.ctags = (
                ({"cvt_off"} if not d.cvt_en else set())
                | ({"signed"} if d.sign_override else set())
                | ({"mean"} if d.mean_en else set())
                | ({"truncate"} if d.cvt_truncate else set())
                | ({"tie"} if _ties(item) else set())
            )
        else:
            h = np.ascontiguousarray(pic.tensor).view(np.uint16)
            exp, man = (h >> 10) & 0x1F, h & 0x3FF
            s.fp16 = (
                ({"nan"} if ((exp == 31) & (man != 0)).any() else set())
                | ({"inf"} if ((exp == 31) & (man == 0)).any() else set())
                | ({"denormal"} if ((exp == 0) & (man != 0)).any() else set())
                | ({"neg_zero"} if (h == 0x8000).any() else set())
            )
    _COVERGROUPS.sample(s)


class PixelCoverage(CoverageSubscriber):
    """Samples each checked job; writes the XML in the extract phase (also when a check fails)."""

    prefix, xml_name = P, XML_NAME

    def sample(self, item: PixelItem) -> None:
        sample_item(item)
