"""Any NVDLA read client on the platform: the parts every client programmed over CSB that reads memory through
NVDLA DMA read ports and hands its data out as a flagged stream shares (NVIDIA's PDP, CDP, SDP read DMAs, the CDMA, a
user's own reader in that style). A block gives its binding (:func:`nvdla_binding`), what a job reads and how it is
programmed (:meth:`NvdlaClientTB.regions`, :meth:`~NvdlaClientTB.pieces`, :meth:`~NvdlaClientTB.payload`, the
register values through the map its ``.rdl`` loads into), the model's answer as a :class:`ClientExpected` and its
own covergroups; the rest is here:

* :class:`NvdlaClientTB`: the register map loaded once from the binding's ``CsbControl.regs`` (an
  NVIDIA-style ``.rdl``: :mod:`dlaverif.thirdparty.nvdla_rdl`), the DMA memory on every read port the binding names;
* :class:`NvdlaClientScoreboard`: every request (port, address, size, in request order), every output word's data
  and flags, the completion (a port or an internal signal), the credits owed, the CSB readback; each message names
  the client's own ports (the binding's), and the block may say where a request or a word lies
  (:meth:`NvdlaClientScoreboard.request_place`, :meth:`NvdlaClientScoreboard.word_place`);
* :class:`NvdlaClientCoverage`: covergroups named ``<block>.<name>``: the block's own plus those every such client
  has (jobs in flight, posted or non-posted CSB writes, memory latency, output backpressure);
* :data:`CORRUPTIONS`: the scoreboard self-test's corruptions of any :class:`ClientExpected`.

Imported by its own path (``dlaverif.platform.nvdla_client``), not from ``dlaverif.platform``: the NVDLA agents it
builds on (:mod:`dlaverif.agents.nvdla`) import the platform's binding and job protocol themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np
from pyuvm import ConfigDB

from dlaverif.agents.nvdla.csb import readback_problems
from dlaverif.agents.nvdla.dma_read import NvdlaBackend, NvdlaReadPort
from dlaverif.agents.nvdla.flagged_stream import FlaggedStream
from dlaverif.agents.stream import payload as stream_payload, sidebands
from dlaverif.platform.binding import Completion, CsbControl, DutBinding, RegisterMap, ResetPin
from dlaverif.platform.coverage import CoverageSubscriber, Covergroups
from dlaverif.platform.job import Expectation, ReaderItem
from dlaverif.platform.reporting import hex_bytes
from dlaverif.platform.scoreboard import JobScoreboard
from dlaverif.platform.tb import ReaderTB

#: NVDLA's core reset (active low)
NVDLA_RESET = ResetPin("nvdla_core_rstn", active_high=False)


def nvdla_binding(
    *,
    csb: tuple[str, str],
    regs: Callable[[], RegisterMap],
    done: str,
    ports: Sequence[NvdlaReadPort],
    stream: FlaggedStream,
    clock: str = "nvdla_core_clk",
    reset: ResetPin = NVDLA_RESET,
    enable: tuple[str, str] = ("D_OP_ENABLE", "OP_EN"),
    pointer: tuple[str, str] = ("S_POINTER", "PRODUCER"),
    groups: int = 2,
    completion: Completion = Completion.DRAINED,
    ties: tuple[tuple[str, int], ...] = (),
) -> DutBinding:
    """The binding of an NVDLA read client: ``csb`` its CSB request and response prefixes, ``regs`` its register map
    (e.g. :class:`dlaverif.thirdparty.nvdla_rdl.RdlFile`), ``done`` its completion pulse (a port, or an internal
    signal as a dotted path), ``ports`` its DMA read ports (in the order of their index on the request analysis
    port), ``stream`` its flagged output, ``ties`` its inputs tied to constants (clock-gating overrides, RAM
    power-down: :attr:`dlaverif.platform.binding.DutBinding.ties`); NVDLA's clock, reset and register-group names by
    default."""
    control = CsbControl(csb[0], csb[1], regs, enable, pointer, done, groups)
    return DutBinding(
        control=control,
        clock=clock,
        reset=reset,
        axi_master="",
        streams=(stream.prefix,),
        completion=completion,
        ties=ties,
        backend=NvdlaBackend.of(tuple(ports), stream),
    )


class NvdlaClientTB(ReaderTB):
    """The platform's TB for an NVDLA read client: the register map loaded once (:attr:`regs`); the block fills
    ``regions``, ``pieces`` and ``payload`` (register name -> value)."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        super().__init__(dut, rng)
        control = self.binding.control
        assert isinstance(control, CsbControl), "an NVDLA client is programmed over CSB"
        self.csb_control = control
        self.regs: Any = control.regs()  # the control's own map (loaded once: the loader caches it)

    @property
    def stream(self) -> FlaggedStream:
        """The client's flagged output (the binding's backend monitors it)."""
        return self.out.stream

    def port(self, index: int) -> NvdlaReadPort:
        """DMA read port ``index`` (a request's ``arid``)."""
        return self.mem.ports[index].port


@dataclass
class ClientExpected(Expectation):
    """What the model says a job of an NVDLA read client does: its requests in order (port index, byte address,
    size field: atoms - 1), the data bytes of its output words in order, the flag bits of every word, and the
    responses the memory answers the requests with."""

    requests: np.ndarray  # (n, 3) uint64
    data: np.ndarray  # uint8
    flags: np.ndarray  # uint64, one per word
    responses: int


class NvdlaClientScoreboard(JobScoreboard):
    """Every request, output word, flag, completion, credit and readback of a job against the block's
    :meth:`expected` (a :class:`ClientExpected`). The platform gives each job of a settled batch the requests that
    read its bytes and the responses that answer them; they are also taken in job order (a client reads its jobs one
    after the other), so a request or response counted with a neighbour is not reported twice."""

    def build_phase(self) -> None:
        super().build_phase()
        self.requests: list[Any] = []  # requests seen, not yet matched to a job
        self.responses = 0  # responses seen, not yet matched

    @property
    def client(self) -> NvdlaClientTB:
        assert isinstance(self.tb, NvdlaClientTB), "observe() gave the scoreboard an NVDLA client's TB"
        return self.tb

    # ------------------------------------------------------------------ per block
    def request_place(self, item: ReaderItem, k: int) -> str:
        """What request ``k`` of the job reads, for a report (e.g. "surface 1, line 3"); "" says nothing more."""
        return ""

    def word_place(self, item: ReaderItem, word: int) -> str:
        """Where output word ``word`` of the job comes from, for a report."""
        return f"word #{word}"

    def readback_masks(self, item: ReaderItem) -> Optional[Mapping[str, int]]:
        """The bits each register keeps on a CSB readback (None: all 32)."""
        return None

    # ------------------------------------------------------------------ the checks
    def compare(self, item: ReaderItem, exp: ClientExpected) -> list[str]:
        tb, res = self.client, item.response()
        self.requests += list(res.bursts)
        self.responses += res.beats_served
        out = list(res.violations)
        out += self.request_problems(item, exp)
        out += self.output_problems(item, exp)
        if res.done_cycle is None:
            out.append(f"no {tb.csb_control.done} pulse for the job")
        owed = {k: v for k, v in tb.mem.owed_credits().items() if v}
        if owed:
            out.append(f"credits owed after the job's output: {owed} (one pulse per response consumed)")
        out += readback_problems(item, tb.payload(item), self.readback_masks(item))
        return out

    def request_problems(self, item: ReaderItem, exp: ClientExpected) -> list[str]:
        """The job's requests in order against ``exp.requests``, the first difference named by the client's ports."""
        tb, n = self.client, len(exp.requests)
        got, self.requests = self.requests[:n], self.requests[n:]
        served = min(self.responses, exp.responses)
        self.responses -= served
        out = []
        for k, (b, (port, addr, size)) in enumerate(zip(got, exp.requests)):
            if (b.arid, b.addr, b.len) != (int(port), int(addr), int(size)):
                place = self.request_place(item, k)
                out.append(
                    f"request #{k}{f' ({place})' if place else ''}: {tb.port(b.arid).req} address 0x{b.addr:x} "
                    f"size {b.len}, expected {tb.port(int(port)).req} address 0x{int(addr):x} size {int(size)}"
                )
                break
        if len(got) < n:
            out.append(f"{len(got)} requests, {n} expected")
        if served < exp.responses:
            out.append(f"{served} responses served, {exp.responses} expected")
        return out

    def output_problems(self, item: ReaderItem, exp: ClientExpected) -> list[str]:
        """The job's output words (data bytes, then flag fields) against ``exp``; the first differing word named."""
        stream = self.client.stream
        word = stream.data_bits // 8
        beats = item.response().beats
        data, _ = stream_payload(beats)
        user, _ = sidebands(beats)
        out = []
        words, want = data.size // word, exp.data.size // word
        if words != want:
            out.append(f"{words} {stream.prefix} words, {want} expected")
        n = min(data.size, exp.data.size)
        bad = np.flatnonzero(data[:n] != exp.data[:n])
        if bad.size:
            w = int(bad[0]) // word
            lo = w * word
            out.append(
                f"data of {self.word_place(item, w)}: {hex_bytes(data[lo : lo + word])}, expected "
                f"{hex_bytes(exp.data[lo : lo + word])} ({np.unique(bad // word).size} word(s) differ)"
            )
        k = min(user.size, exp.flags.size)
        badf = np.flatnonzero(user[:k] != exp.flags[:k])
        if badf.size:
            j = int(badf[0])
            got_f, want_f = stream.decode(user[j : j + 1]), stream.decode(exp.flags[j : j + 1])
            diff = ", ".join(
                f"{f}={int(got_f[f][0])} (expected {int(want_f[f][0])})" for f in got_f if got_f[f][0] != want_f[f][0]
            )
            out.append(f"flags of {self.word_place(item, j)}: {diff} ({badf.size} word(s) with wrong flags)")
        return out

    def details(self, item: ReaderItem) -> list[str]:
        return [
            f"knobs: {item.knobs}",
            f"nposted={getattr(item, 'nposted', False)} readback={bool(getattr(item, 'readback', False))}",
        ]


def common_points(groups: int) -> tuple[tuple[str, Callable[[Any], Any], list[Any]], ...]:
    """(name, sample function, bins) of the covergroups every NVDLA read client with ``groups`` register groups
    has: jobs in flight (1 to ``groups``), posted or non-posted CSB writes, memory latency, output backpressure."""
    return (("in_flight", lambda it: it.response().in_flight, list(range(1, groups + 1))),) + _KNOB_POINTS


_KNOB_POINTS: tuple[tuple[str, Callable[[Any], Any], list[Any]], ...] = (
    ("csb_writes", lambda it: "nposted" if getattr(it, "nposted", False) else "posted", ["posted", "nposted"]),
    ("latency", lambda it: it.knobs.latency > 0, [False, True]),
    ("backpressure", lambda it: it.knobs.backpressure != "none", [False, True]),
)


class NvdlaClientCoverage(CoverageSubscriber):
    """Covergroups named by the block (:attr:`prefix`: ``<prefix>.<name>``, written to ``fcov_<prefix>.xml``): the
    block's :attr:`points` ((name, sample function, bins)) and :attr:`crosses` ((name, point names)), and
    :func:`common_points` of the TB's register groups."""

    points: tuple[tuple[str, Callable[[Any], Any], list[Any]], ...] = ()
    crosses: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def build_phase(self) -> None:
        super().build_phase()
        self.xml_name = self.xml_name or f"fcov_{self.prefix}.xml"
        self.groups = Covergroups(self.covergroups)

    @classmethod
    def covergroups(cls, groups: int) -> list[Any]:
        """The block's covergroups for a client of ``groups`` register groups (built at the first sample; building
        them registers their names in cocotb-coverage's database, as a plan check needs)."""
        from cocotb_coverage.coverage import CoverCross, CoverPoint

        p, points = cls.prefix, cls.points + common_points(groups)
        out: list[Any] = [CoverPoint(f"{p}.{n}", xf=xf, bins=bins) for n, xf, bins in points]
        out += [CoverCross(f"{p}.{n}", items=[f"{p}.{i}" for i in items]) for n, items in cls.crosses]
        return out

    def sample(self, item: ReaderItem) -> None:
        tb = ConfigDB().get(None, "", "TB")  # the test base's TB: its binding's register groups
        self.groups.sample(item, tb.binding.control.groups)


def _flip_byte(item: Any, exp: ClientExpected, rng: np.random.Generator) -> str:
    exp.data[int(rng.integers(0, exp.data.size))] ^= 0x5A
    return "data of word"


def _flip_flags(item: Any, exp: ClientExpected, rng: np.random.Generator) -> str:
    exp.flags[-1] ^= np.uint64(1)  # the lowest flag field of the job's last word
    return "flags of"


def _shift_request(item: Any, exp: ClientExpected, rng: np.random.Generator) -> str:
    exp.requests[-1, 1] += np.uint64(32)
    return "request #"


def _short_output(item: Any, exp: ClientExpected, rng: np.random.Generator) -> str:
    per_word = exp.data.size // exp.flags.size
    exp.data, exp.flags = exp.data[:-per_word], exp.flags[:-1]
    return "words,"


#: the scoreboard self-test's corruptions of any :class:`ClientExpected` (a data byte, a flag of the last word, the
#: last request's address, a missing last word), each with the text its report must hold
CORRUPTIONS = (_flip_byte, _flip_flags, _shift_request, _short_output)
