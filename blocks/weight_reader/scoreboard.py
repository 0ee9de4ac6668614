"""Weight-reader scoreboard: every job against the models.

Expected values come from the models only: the dense stream is the mapped uncompressed stream of the weight set
(``models.pack`` of its format, :mod:`blocks.weight_reader.weights`), cut into transfers of the output width per kernel
group (``info()["group_elements"]``: every group starts a transfer, tlast on its last one, tuser = the group); the
validator's bits are ``WeightSurfaceDescriptor.errors(AXI_ADDR_W)``; for a corrupted job the failing group is
found from the model's WMB bits and WGS entries (:func:`runtime_error`); counters are sums over the model's
stream (kept elements, WGS entries).

A mismatch report names the weight set (format, precision, shape, mask), the transfer, the kernel group, kernel,
channel and tap of the first differing byte (the format's own unpack of a probe, ``WeightSet.coordinates``), its
address in the dense stream and in the weight surface when dense, expected and actual bytes, the seed and the
command that reproduces the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
from pyuvm import ConfigDB

from dlaverif.agents.stream import payload, sidebands
from dlaverif.platform import (
    Expectation,
    JobScoreboard,
    bus_problems,
    hex_bytes as _hex,
    job_problems,
    regression_seed,
    status_problems,
)
from dlaverif.platform.mismatch_map import DiffRows, as_rows

from .items import Kind, WeightItem
from .registers import (
    ERRORS,
    REGS,
    SURFACE_CODE,
    WEIGHT_OVERRUN,
    WGS_MISMATCH,
    fault_surface,
)


@dataclass
class Expected(Expectation):
    """The model's answer for one job, as transfers."""

    dense: np.ndarray  # the dense bytes (uint8)
    group: np.ndarray  # per transfer: kernel group
    start: np.ndarray  # per transfer: first dense byte
    length: np.ndarray  # per transfer: bytes (tkeep)
    last: np.ndarray  # per transfer: tlast
    error: int
    fault: int  # FAULT.SURFACE
    max_beats: int  # transfers that must match (a prefix of the above)
    exact: bool  # exactly max_beats transfers
    loose: int = 0  # CORRUPT (WGS mismatch): up to this many further transfers of the failing group,
    # contents not checked, no tlast


def transfers(group_bytes: list[int], bus_bytes: int) -> tuple[np.ndarray, ...]:
    """(group, first byte, length, tlast) of every transfer of a dense stream with these group sizes."""
    gb = np.asarray(group_bytes, np.int64)
    nb = -(-gb // bus_bytes)
    group = np.repeat(np.arange(gb.size), nb)
    first = np.repeat(np.cumsum(nb) - nb, nb)
    idx = np.arange(group.size) - first  # transfer index inside its group
    gstart = np.repeat(np.cumsum(gb) - gb, nb)
    start = gstart + idx * bus_bytes
    length = np.minimum(bus_bytes, np.repeat(gb, nb) - idx * bus_bytes)
    last = idx == np.repeat(nb, nb) - 1
    return group, start, length, last


def runtime_error(item: WeightItem) -> tuple[int, int]:
    """(ERROR bit, failing group) of a corrupted compressed job, from the model's WMB bits and the WGS entries and
    WEIGHT_BYTES as programmed: the first group whose WGS sum passes WEIGHT_BYTES (weight overrun, checked when
    the group starts) or whose WGS entry differs from popcount(its WMB bits) x element bytes."""
    ws, d = item.ws, item.desc
    assert ws is not None and d is not None, "a CORRUPT job has its weight set and descriptor"
    bits = np.unpackbits(np.frombuffer(bytes(item.pieces_dict()["wmb"]), np.uint8), bitorder="little")
    n = int(sum(ws.group_elems))
    ends = np.cumsum(ws.group_elems)
    cs = np.concatenate(([0], np.cumsum(bits[:n], dtype=np.int64)))
    pop = (cs[ends] - cs[ends - np.asarray(ws.group_elems)]) * d.elem_bytes
    wgs = np.frombuffer(bytes(item.pieces_dict()["wgs"]), np.uint8)[: 4 * d.groups].view("<u4").astype(np.int64)
    over = np.flatnonzero(np.cumsum(wgs) > d.weight_bytes)
    mism = np.flatnonzero(pop != wgs)
    g_over = int(over[0]) if over.size else d.groups
    g_mism = int(mism[0]) if mism.size else d.groups
    if g_over <= g_mism and g_over < d.groups:
        return WEIGHT_OVERRUN, g_over
    if g_mism < d.groups:
        return WGS_MISMATCH, g_mism
    return 0, d.groups


def expected_for(item: WeightItem, addr_bits: int, out_bytes: int) -> Expected:
    """What a correct reader does with ``item`` (models only); ``out_bytes`` per output transfer."""
    d = item.desc
    assert d is not None, "every weight job programs a descriptor"
    if item.kind is Kind.ILLEGAL:
        return Expected.nothing(ERRORS.word(d.errors(addr_bits)), dense=np.zeros(0, np.uint8), last=np.zeros(0, bool))
    ws = item.ws
    assert ws is not None, "every legal weight job (not ILLEGAL) has its weight set"
    group, start, length, last = transfers([g * ws.elem_bytes for g in ws.group_elems], out_bytes)
    exp = Expected(ws.dense, group, start, length, last, 0, 0, group.size, True)
    if item.kind is Kind.CORRUPT:
        bit, g = runtime_error(item)
        exp.error = bit
        exp.max_beats = int(np.searchsorted(group, g))  # every transfer of the groups before g
        exp.loose = int((group == g).sum()) - 1 if bit == WGS_MISMATCH else 0
    elif item.kind is Kind.BUS_ERROR:
        exp.error = ERRORS.of_faults(item.faults)
        exp.fault = SURFACE_CODE[item.fault_surface]
        exp.exact = False
    elif item.kind is Kind.RESET:
        exp.exact = False
    return exp


def decode_user(user: int) -> int:
    """The weight reader's TUSER[15:0]: the kernel group of the transfer."""
    return user & 0xFFFF


def surface_address(item: WeightItem, b: int) -> str:
    """Where dense byte ``b`` comes from in memory: its weight-surface byte (dense: the same offset; compressed: after
    the kept elements before it, when its element is kept) and, compressed, its WMB bit."""
    d, ws = item.desc, item.ws
    assert d is not None and ws is not None, "a byte differs only in a legal job, which has its weight set"
    if not d.compressed:
        return f", weight surface 0x{d.weight_base + b:x}"
    e = d.elem_bytes
    el = b // e
    wmb = f", WMB bit {el % 8} of 0x{d.wmb_base + el // 8:x}"
    if el < ws.kept.size and ws.kept[el]:
        return f", compressed byte 0x{d.weight_base + int(ws.kept[:el].sum()) * e + b % e:x}{wmb}"
    return f", a zero element{wmb}"


class WeightScoreboard(JobScoreboard):
    """Checks each finished weight job against the models."""

    counted = "dense bytes"

    def build_phase(self) -> None:
        super().build_phase()
        self.out_bytes: int = ConfigDB().get(self, "", "OUT_BYTES")

    def expected(self, item: WeightItem) -> Expected:
        return expected_for(item, self.addr_bits, self.out_bytes)

    def details(self, item: WeightItem) -> list[str]:
        return [f"desc: {item.desc}", f"knobs: {item.knobs}", f"seed: {regression_seed()}"]

    def diff_rows(self, item: WeightItem, exp: Expected) -> Optional[DiffRows]:
        return dense_rows(item, exp)

    # ---------------------------------------------------------------- checks
    def compare(self, item: WeightItem, exp: Expected) -> list[str]:
        return job_problems(item, exp, "transfer", REGS, self._check_done, self._check_stream)

    def _check_done(self, item: WeightItem, exp: Expected) -> list[str]:
        res = item.response()
        st = res.status
        out = status_problems(st, REGS, exp.error)
        if fault_surface(st.fault) != exp.fault:
            out.append(
                f"FAULT surface {fault_surface(st.fault)}, expected {exp.fault} ({item.fault_surface or 'none'})"
            )
        d = item.desc
        assert d is not None, "every weight job programs a descriptor"
        if st.total_bytes != d.dense_bytes & 0xFFFFFFFF:
            out.append(f"TOTAL_BYTES={st.total_bytes}, model dense bytes {d.dense_bytes}")
        out += self._check_stream(item, exp)
        n = len(res.beats)
        sent = int(payload(res.beats)[1].sum())
        lasts = int(sidebands(res.beats)[1].sum())
        if st.out_beats != n or st.dense_out != sent or st.groups_done != lasts:
            out.append(
                f"OUT_BEATS={st.out_beats} DENSE_OUT={st.dense_out} GROUPS_DONE={st.groups_done}, but "
                f"{n} transfers, {sent} bytes, {lasts} tlast crossed the stream"
            )
        if item.kind is Kind.WEIGHTS:
            ws = item.ws
            assert ws is not None, "every legal weight job (not ILLEGAL) has its weight set"
            comp = int(ws.wgs_values().sum()) if ws.compressed else ws.desc.dense_bytes
            zeros = int((~ws.kept).sum()) if ws.compressed else 0
            if st.comp_bytes != comp or st.zeros != zeros:
                out.append(
                    f"COMP_BYTES={st.comp_bytes} ZEROS={st.zeros}, model {comp} bytes expanded (sum of WGS) "
                    f"and {zeros} zero elements"
                )
        out += bus_problems(res, st.beats, item.kind is Kind.ILLEGAL, item.kind is Kind.WEIGHTS, bus_error=False)
        out += res.violations
        return out

    def _check_stream(self, item: WeightItem, exp: Expected) -> list[str]:
        beats = item.response().beats
        n = len(beats)
        out: list[str] = []
        hi = exp.max_beats + exp.loose
        if exp.exact and not exp.loose and n != exp.max_beats:
            out.append(f"{n} transfers on the stream, expected {exp.max_beats}")
        elif exp.loose and not exp.max_beats <= n <= hi:
            out.append(
                f"{n} transfers on the stream, expected the {exp.max_beats} of the groups before the failing "
                f"one and at most {exp.loose} of it"
            )
        elif not exp.exact and n > exp.max_beats:
            out.append(f"{n} transfers on the stream, at most {exp.max_beats} allowed")
        k = min(n, exp.max_beats)
        data, sizes = payload(beats)  # columns: no object per transfer on the fast path's batches
        lens = sizes[:k]
        user_col, lasts = sidebands(beats)
        users = (user_col & np.uint64(0xFFFF)).astype(np.int64)  # decode_user, vectorized
        bad = np.flatnonzero(lens != exp.length[:k])
        if bad.size:
            i = int(bad[0])
            out.insert(
                0,
                f"transfer #{i} (group {exp.group[i]}) has {lens[i]} bytes (TKEEP 0x{beats[i].keep:x}), "
                f"expected {exp.length[i]}",
            )
            return out
        if k:
            got = data[: int(lens.sum())]
            lo, end = int(exp.start[0]), int(exp.start[k - 1] + exp.length[k - 1])
            want = exp.dense[lo:end]
            diff = np.flatnonzero(got != want)
            self.units_checked += got.size
            if diff.size:
                j = int(diff[0])
                i = int(np.searchsorted(exp.start[:k], lo + j, side="right")) - 1
                t0 = int(exp.start[i])
                b = lo + j
                ws = item.ws
                where = ws.coordinates(b) if ws is not None else ""
                surf = surface_address(item, b)
                out.insert(
                    0,
                    f"transfer #{i} of {exp.max_beats} differs first at dense byte {b} (0x{b:x}{surf}): "
                    f"{where}; expected 0x{exp.dense[b]:02x}, actual 0x{got[j]:02x} ({diff.size} bytes "
                    f"differ) [{ws.label() if ws else ''}]",
                )
                out.append(f"expected: {_hex(exp.dense[t0 : t0 + exp.length[i]], b - t0)}")
                out.append(f"actual:   {_hex(got[t0 - lo : t0 - lo + exp.length[i]], b - t0)}")
        badu = np.flatnonzero(users[:k] != exp.group[:k])
        if badu.size:
            i = int(badu[0])
            out.append(f"transfer #{i}: TUSER group {users[i]}, expected {exp.group[i]}")
        badl = np.flatnonzero(lasts[:k] != exp.last[:k])
        if badl.size:
            i = int(badl[0])
            out.append(f"transfer #{i} (group {exp.group[i]}): TLAST={int(lasts[i])}, expected {int(exp.last[i])}")
        if n > k:  # the failing group's transfers (WGS mismatch): its own group, never tlast
            g = exp.group[k] if k < exp.group.size else -1
            if (users[k:] != g).any() or lasts[k:].any():
                out.append(
                    f"after the {k} transfers of the complete groups: TUSER {users[k:].tolist()[:4]} / TLAST "
                    f"{lasts[k:].astype(int).tolist()[:4]}, expected group {g} without TLAST"
                )
        return out


def dense_rows(item: WeightItem, exp: Expected) -> Optional[DiffRows]:
    """The mismatch map's rows: the dense bytes as the stream carries them, one row per transfer (a kernel group's
    last transfer is short), labelled with its kernel group and dense byte range; a byte by its kernel group,
    kernel, channel and tap (``WeightSet.coordinates``) and dense offset. None when no transfer is comparable."""
    beats = item.response().beats
    k = min(len(beats), exp.max_beats)
    if k == 0:
        return None
    data, sizes = payload(beats[:k])
    lens = np.asarray(sizes[:k], np.int64)
    if (lens != exp.length[:k]).any():
        return None
    width = int(lens.max())
    starts = np.asarray(exp.start[:k], np.int64)
    got_starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
    ws = item.ws

    def byte(i: int, j: int) -> str:
        b = int(starts[i]) + j
        where = ws.coordinates(b) if ws is not None else f"group {int(exp.group[i])}"
        return f"transfer #{i} dense byte {b} (0x{b:x}): {where}"

    return DiffRows(
        "transfer",
        as_rows(exp.dense, starts, lens, width),
        as_rows(data, got_starts, lens, width),
        lambda i: f"#{i} group {int(exp.group[i])} dense 0x{int(starts[i]):x}",
        byte,
        item.label(),
    )
