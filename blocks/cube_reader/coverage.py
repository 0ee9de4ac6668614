"""Functional coverage of the cube reader (cocotb-coverage), sampled on every checked job.

Cover points (names under ``cube_reader.``): job kind, layout, family, dtype, layout x dtype, atom and element
size, count edge bins per dimension, channels against the atom (one / partial / exact / multiple /
non-multiple), packed or gapped strides, base placement (4 KB page start, just below a page, crossing 4 KB,
across 4 GB, top of the address space), timing knobs (TREADY backpressure, RVALID gaps, ARREADY stalls,
latency), error bits observed, START and descriptor writes while busy, layout x dtype (the pairs the families
produce), bus errors by response and position, fp16 specials, reset during a job.

The database is process-wide (all tests of a run add to it); :func:`export` writes it as XML into the run
directory (``fcov_cube_reader.xml``); merge runs with ``cocotb_coverage.coverage.merge_coverage``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

import numpy as np
from cocotb_coverage.coverage import CoverPoint

from dlaverif.models.blocked import ERROR_RULES, Layout
from dlaverif.models.core.fp16 import fp16_classes
from dlaverif.platform import CoverageSubscriber
from dlaverif.platform.coverage import Covergroups, job_fields, job_points

from .items import CubeItem, Kind
from .registers import REGS

XML_NAME = "fcov_cube_reader.xml"
P = "cube_reader"

COUNT_BINS = [(1, 1), (2, 7), (8, 63), (64, 1023), (1024, 65534), (65535, 65535)]
COUNT_LABELS = ["one", "2-7", "8-63", "64-1023", "1024-65534", "max"]
STRIDE_TAGS = ["packed_h", "gapped_h", "packed_c", "gapped_c", "packed_n", "gapped_n"]
BASE_TAGS = ["base_page", "base_below_page", "base_any", "base_cross_4g", "base_top", "crosses_4k", "huge_stride"]
ERROR_NAMES = list(ERROR_RULES) + ["bus_slverr", "bus_decerr"]
BURST_BINS = [(1, 1), (2, 15), (16, 255), (256, 256)]
BURST_LABELS = ["1", "2-15", "16-255", "256"]
PAGE = 4096
DTYPES = ["int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32"]


def _in(v, b) -> bool:
    return b[0] <= v <= b[1]


def _member(v, b) -> bool:
    return b in v


def _any_in(values, b) -> bool:
    return any(b[0] <= v <= b[1] for v in values)


def split_at_4k(bursts) -> bool:
    """True when one AR burst ends on a 4 KB boundary and the next one starts there (AXI4 A3.4.1: a burst must
    not cross 4 KB, so a run across the boundary is split)."""
    ends = {b.addr + (b.beats << b.size) for b in bursts}
    return any(b.addr % PAGE == 0 and b.addr in ends for b in bursts)


def axi_resp(errors: set[str], kind: str) -> Optional[str]:
    if "bus_slverr" in errors:
        return "SLVERR"
    if "bus_decerr" in errors:
        return "DECERR"
    return "OKAY" if kind == Kind.CUBE.value and not errors else None


def channel_class(channels: int, epa: int) -> str:
    if channels == 1:
        return "one"
    if channels < epa:
        return "partial"
    if channels == epa:
        return "exact"
    return "multiple" if channels % epa == 0 else "non_multiple"


def layout_dtype_bins(families) -> list[str]:
    """The (layout, dtype) pairs the families can produce, as ``LAYOUT/dtype``."""
    from dlaverif.models.blocked import LAYOUT_ELEMS

    from .families import _ELEM_DTYPE

    out: list[str] = []
    for f in families:
        if f.model:
            dts = list(f.dtypes)
        else:
            elems = LAYOUT_ELEMS[f.layout]
            dts = [_ELEM_DTYPE[e] for e in elems] + (["float16"] if 2 in elems else [])
        out += [f"{f.layout.name}/{d}" for d in dts if f"{f.layout.name}/{d}" not in out]
    return out


def _build(families):
    names = [f.name for f in families]
    where = [(r, p) for r in ("SLVERR", "DECERR") for p in ("first", "middle", "last")]
    items = job_points(P, [k.value for k in Kind], "atom", list(ERROR_RULES), where) + [
        CoverPoint(f"{P}.layout", xf=lambda s: s.layout, bins=[lay.name for lay in Layout]),
        CoverPoint(f"{P}.family", xf=lambda s: s.family, bins=names),
        CoverPoint(f"{P}.layout_x_dtype", xf=lambda s: s.layout_dtype, bins=layout_dtype_bins(families)),
        CoverPoint(f"{P}.dtype", xf=lambda s: s.dtype, bins=DTYPES),
        CoverPoint(f"{P}.atom_bytes", xf=lambda s: s.atom, bins=[8, 16, 32, 64, 128]),
        CoverPoint(f"{P}.elem_bytes", xf=lambda s: s.elem, bins=[1, 2, 4]),
        CoverPoint(
            f"{P}.channels_vs_atom", xf=lambda s: s.chan, bins=["one", "partial", "exact", "multiple", "non_multiple"]
        ),
        CoverPoint(f"{P}.strides", xf=lambda s: s.tags, rel=_member, bins=STRIDE_TAGS, inj=False),
        CoverPoint(f"{P}.base", xf=lambda s: s.tags, rel=_member, bins=BASE_TAGS, inj=False),
        CoverPoint(
            f"{P}.latency",
            xf=lambda s: s.latency,
            rel=_in,
            bins=[(0, 0), (1, 8), (9, 1000)],
            bins_labels=["zero", "short", "long"],
        ),
        CoverPoint(f"{P}.errors_seen", xf=lambda s: s.errors, rel=_member, bins=ERROR_NAMES, inj=False),
        CoverPoint(
            f"{P}.fp16", xf=lambda s: s.fp16, rel=_member, bins=["nan", "inf", "denormal", "nan_to_zero"], inj=False
        ),
        CoverPoint(f"{P}.ar_4k_split", xf=lambda s: s.split_4k, bins=["split_at_4k", "within_pages"]),
        CoverPoint(
            f"{P}.burst_beats",
            xf=lambda s: s.burst_beats,
            rel=_any_in,
            bins=BURST_BINS,
            bins_labels=BURST_LABELS,
            inj=False,
        ),
        CoverPoint(
            f"{P}.error_together",
            xf=lambda s: s.errors & set(ERROR_RULES),
            rel=lambda e, b: b in e and len(e) > 1,
            bins=list(ERROR_RULES),
            inj=False,
        ),
        CoverPoint(f"{P}.axi_resp", xf=lambda s: s.resp, bins=["OKAY", "SLVERR", "DECERR"]),
    ]
    for dim in ("w", "h", "c", "n"):
        items.append(
            CoverPoint(
                f"{P}.count_{dim}",
                xf=lambda s, dim=dim: s.counts[dim],
                rel=_in,
                bins=COUNT_BINS,
                bins_labels=COUNT_LABELS,
            )
        )
    return items


_COVERGROUPS = Covergroups(_build)


def sample_item(item: CubeItem, families) -> None:
    """Sample one checked job."""
    d = item.desc
    assert d is not None, "every cube job programs a descriptor"
    cube = item.cube
    res = item.result
    tags = set(cube.tags) if cube is not None and item.kind is not Kind.ILLEGAL else set()
    fp16 = set()
    if cube is not None and item.use_fp16() and d.elem_bytes == 2 and item.kind is not Kind.ILLEGAL:
        raw = cube.all_bytes()
        h = np.ascontiguousarray(raw[: raw.size // 2 * 2]).view("<u2")
        nan, inf = fp16_classes(h)
        if nan.any():
            fp16.add("nan")
        if inf.any():
            fp16.add("inf")
        if (((h & 0x7C00) == 0) & ((h & 0x3FF) != 0)).any():
            fp16.add("denormal")
        if item.nan_to_zero:
            fp16.add("nan_to_zero")
    valid_layout = int(d.layout) in Layout._value2member_map_
    s = SimpleNamespace(
        **job_fields(item, REGS, "atom", lambda item: item.fault_where),
        layout=Layout(int(d.layout)).name if valid_layout else "invalid",
        family=cube.family if cube is not None and item.kind is not Kind.ILLEGAL else "illegal",
        dtype=cube.dtype if cube is not None else None,
        atom=d.atom_bytes,
        elem=d.elem_bytes,
        chan=channel_class(cube.channels, cube.epa) if cube is not None and item.kind is not Kind.ILLEGAL else None,
        tags=tags,
        fp16=fp16,
        counts={"w": d.count_w, "h": d.count_h, "c": d.count_c, "n": d.count_n},
    )
    s.layout_dtype = f"{s.layout}/{s.dtype}" if item.kind is not Kind.ILLEGAL else None
    bursts = res.bursts if res is not None else []
    s.split_4k = None if not bursts else "split_at_4k" if split_at_4k(bursts) else "within_pages"
    s.burst_beats = {b.beats for b in bursts}
    s.resp = axi_resp(s.errors, s.kind)
    _COVERGROUPS.sample(s, families)


class CubeCoverage(CoverageSubscriber):
    """Samples each job the driver publishes; writes the XML in the extract phase (also when a check fails)."""

    prefix, xml_name = P, XML_NAME

    def build_phase(self) -> None:
        from pyuvm import ConfigDB

        self.families = ConfigDB().get(self, "", "FAMILY_OBJS")

    def sample(self, item: CubeItem) -> None:
        sample_item(item, self.families)
