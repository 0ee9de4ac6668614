"""Functional coverage of the weight reader (cocotb-coverage), sampled on every checked job.

Cover points (under ``weight_reader.``): job kind, weight format family, precision, format x precision, format x
precision x density bin, sparsity pattern, density bin, kernel count against the kernel group (group-size edge),
channels against the 64-element C' block, post-extension of image weights, dense or compressed, a kernel group
starting inside a WMB byte (raw streams of the synthetic family), a weight-data piece starting inside a bus word
(after one that stopped at the WGS read limit: that word is read again), every ERROR bit
alone (validator rules, run-time checks, bus errors), the corruptions, bus errors by surface and response, reset
during a job, and the timing knobs. XML: ``fcov_weight_reader.xml`` in the run directory.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

from cocotb_coverage.coverage import CoverPoint

from dlaverif.models.nvdla.weights.groups import KERNELS_PER_GROUP
from dlaverif.models.weight_desc import ERROR_RULES
from dlaverif.platform import CoverageSubscriber
from dlaverif.platform.coverage import Covergroups, job_fields, job_points

from .items import CORRUPTIONS, Kind, WeightItem
from .registers import REGS
from .weights import FAMILIES, MASKS, PRECISIONS, SYNTHETIC

XML_NAME = "fcov_weight_reader.xml"
P = "weight_reader"
DENSITY = ["zero", "sparse", "half", "dense", "full"]
GROUP_EDGES = ["one_kernel", "partial_group", "exact_group", "group_plus_one", "groups_exact", "groups_partial"]
CHANNEL_EDGES = ["below_64", "exactly_64", "65_to_127", "exactly_128", "above_128"]
ERROR_BITS = list(ERROR_RULES) + ["wgs_mismatch", "weight_overrun", "bus_slverr", "bus_decerr"]


def density_bin(d: float) -> str:
    if d == 0.0:
        return "zero"
    if d == 1.0:
        return "full"
    return "sparse" if d <= 0.1 else "half" if d < 0.9 else "dense"


def group_edge(k: int, kpg: int) -> str:
    if k == 1:
        return "one_kernel"
    if k < kpg:
        return "partial_group"
    if k == kpg:
        return "exact_group"
    if k == kpg + 1:
        return "group_plus_one"
    return "groups_exact" if k % kpg == 0 else "groups_partial"


def channel_edge(c: int) -> str:
    return (
        "below_64"
        if c < 64
        else "exactly_64"
        if c == 64
        else "65_to_127"
        if c < 128
        else "exactly_128"
        if c == 128
        else "above_128"
    )


def _build():
    fams = list(FAMILIES)
    fp = [f"{f}/{p}" for f in fams for p in PRECISIONS]
    where = [(r, w) for r in ("SLVERR", "DECERR") for w in ("weight", "wmb", "wgs")]
    return job_points(P, [k.value for k in Kind], "transfer", ERROR_BITS, where) + [
        CoverPoint(f"{P}.family", xf=lambda s: s.family, bins=fams),
        CoverPoint(f"{P}.precision", xf=lambda s: s.precision, bins=list(PRECISIONS)),
        CoverPoint(f"{P}.family_x_precision", xf=lambda s: s.fp, bins=fp),
        CoverPoint(
            f"{P}.family_x_precision_x_density", xf=lambda s: s.fpd, bins=[f"{x}/{d}" for x in fp for d in DENSITY]
        ),
        CoverPoint(f"{P}.mask", xf=lambda s: s.mask, bins=list(MASKS)),
        CoverPoint(f"{P}.density", xf=lambda s: s.density, bins=DENSITY),
        CoverPoint(f"{P}.group_edge", xf=lambda s: s.group_edge, bins=GROUP_EDGES),
        CoverPoint(f"{P}.channels_vs_block", xf=lambda s: s.channel_edge, bins=CHANNEL_EDGES),
        CoverPoint(f"{P}.post_extension", xf=lambda s: s.post_extension, bins=[1, 2, 4]),
        CoverPoint(f"{P}.compressed", xf=lambda s: s.compressed, bins=[False, True]),
        CoverPoint(f"{P}.group_start_in_wmb", xf=lambda s: s.group_start, bins=["byte_aligned", "mid_byte"]),
        CoverPoint(f"{P}.data_read_start", xf=lambda s: s.data_start, bins=["bus_word", "inside_word"]),
        CoverPoint(f"{P}.corruption", xf=lambda s: s.corruption, bins=list(CORRUPTIONS)),
    ]


_COVERGROUPS = Covergroups(_build)


def data_read_start(item: WeightItem) -> Optional[str]:
    """Where a compressed job's weight-data pieces start: ``inside_word`` when one starts inside a bus word (the read
    limit is the WGS sum received so far, so a piece may stop inside a word and the next one start there:
    blocks/rtl/weight_reader/wr_fetch.sv). The AR addresses are word-aligned (the read engine sends the lanes
    inside; a beat is 2**ARSIZE bytes), so such a piece shows as a bus word of the weight surface read twice.
    ``bus_word`` when no word is read twice; None for a job that read none."""
    res, ws = item.result, item.ws
    if res is None or ws is None or not ws.compressed:
        return None
    base, end = ws.desc.weight_base, ws.desc.weight_base + ws.desc.weight_bytes
    words = [(b.addr >> b.size) + i for b in res.bursts if base <= b.addr < end for i in range(b.beats)]
    if not words:
        return None
    return "inside_word" if len(set(words)) < len(words) else "bus_word"


def sample_item(item: WeightItem) -> None:
    """Sample one checked job."""
    ws = item.ws if item.kind is not Kind.ILLEGAL else None  # a legal job's weight set (None: illegal)
    s = SimpleNamespace(
        **job_fields(item, REGS, "transfer", lambda item: item.fault_surface),
        family=None,
        precision=None,
        fp=None,
        fpd=None,
        mask=None,
        density=None,
        group_edge=None,
        channel_edge=None,
        post_extension=None,
        compressed=None,
        corruption=None,
        group_start=None,
        data_start=None,
    )
    if ws is not None and ws.compressed and len(ws.group_elems) > 1:
        s.group_start = "mid_byte" if ws.group_elems[0] % 8 else "byte_aligned"
    if item.kind is Kind.WEIGHTS:
        s.data_start = data_read_start(item)
    if ws is not None and ws.family == SYNTHETIC:
        s.precision, s.mask, s.compressed = ws.dtype, ws.mask, ws.compressed
    elif ws is not None:
        k, c = ws.shape[0], ws.shape[1]
        s.family, s.precision, s.mask, s.compressed = ws.family, ws.dtype, ws.mask, ws.compressed
        s.fp = f"{ws.family}/{ws.dtype}"
        s.density = density_bin(ws.density())
        s.fpd = f"{s.fp}/{s.density}"
        s.group_edge = group_edge(k, KERNELS_PER_GROUP[ws.dtype])
        s.channel_edge = channel_edge(c) if ws.family in ("dc", "deconv", "winograd") else None
        s.post_extension = ws.opts.get("post_extension") if ws.family.startswith("image") else None
    if item.kind is Kind.CORRUPT:
        s.corruption = item.mutation
    _COVERGROUPS.sample(s)


class WeightCoverage(CoverageSubscriber):
    """Samples each checked job; writes the XML in the extract phase (also when a check fails)."""

    prefix, xml_name = P, XML_NAME

    def sample(self, item: WeightItem) -> None:
        sample_item(item)
