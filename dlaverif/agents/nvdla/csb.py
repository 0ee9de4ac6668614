"""NVDLA's configuration space bus (CSB) as a control style of the platform: an agent for a client's CSB port
(posted and non-posted writes, reads, their responses and the error bit) and the job protocol of an NVDLA client
(:class:`CsbControl`): program one of its register groups, enable it, and count its done pulses; the next layer
goes into the other group while one runs (the producer/consumer pointer), so two jobs are in flight.

Packets (nvdla/hw nvdlav1, e.g. the PDP read DMA's register unit in ``vmod/nvdla/pdp/``, ``*_reg.v:653-681``; the same
in every client):

* request ``<req>_pvld`` / ``<req>_prdy`` / ``<req>_pd`` (63 bits): ``[21:0]`` word address (byte address >> 2),
  ``[53:22]`` write data, ``[54]`` write, ``[55]`` non-posted, ``[56]`` source privilege, ``[60:57]`` byte enables,
  ``[62:61]`` level;
* response ``<resp>_valid`` / ``<resp>_pd`` (34 bits), one per read and per non-posted write, in request order:
  ``[31:0]`` read data, ``[32]`` error, ``[33]`` 1 for a write response, 0 for a read response.

The agent checks the responses: one per read and non-posted write, of the right kind, none for a posted write, the
error bit clear; every problem is published on ``violation_ap`` (the scoreboard reports it with its job).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Mapping, Optional

from cocotb.triggers import Event, FallingEdge, RisingEdge

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.signals import uint_reader
from dlaverif.platform.binding import CsbControl
from dlaverif.platform.control_pipelined import Sender, valid_until_ready
from dlaverif.platform.job import ReaderItem

ADDR_BITS = 22
WDAT_LSB, WRITE_BIT, NPOSTED_BIT, WRBE_LSB = 22, 54, 55, 57
RSP_ERROR_BIT, RSP_WRITE_BIT = 32, 33
TIMEOUT = 64  # cycles a response may take


def request(addr: int, data: int = 0, write: bool = False, nposted: bool = False) -> int:
    """The 63-bit request packet of an access to byte address ``addr`` (all byte enables)."""
    return (
        (addr >> 2) & ((1 << ADDR_BITS) - 1)
        | (data & 0xFFFFFFFF) << WDAT_LSB
        | int(write) << WRITE_BIT
        | int(nposted) << NPOSTED_BIT
        | 0xF << WRBE_LSB
    )


class CsbAgent:
    """Drives a client's CSB request port and checks its responses (module docstring)."""

    def __init__(self, dut, clock, loop: Any, control: CsbControl, signal: Callable[[Any, str], Any]) -> None:
        self.clock = clock
        self.pvld = signal(dut, f"{control.req}_pvld")
        self.prdy = signal(dut, f"{control.req}_prdy")
        self.pd = signal(dut, f"{control.req}_pd")
        self.rsp_valid = signal(dut, f"{control.resp}_valid")
        self._rsp_pd = uint_reader(signal(dut, f"{control.resp}_pd"))
        self.pvld.value = 0
        self.violation_ap = AnalysisPort("csb.violation_ap")
        self.expected: deque[tuple[str, int]] = deque()  # ("read"|"write", address) of the responses owed
        self.responses: deque[int] = deque()  # read data, in order
        self.arrived = Event()
        self.accesses = {"read": 0, "write": 0, "nposted": 0}
        self._rise = RisingEdge(self.rsp_valid)
        loop.add(self._watch)

    def clear(self) -> None:
        """Reset: no response is owed any more."""
        self.expected.clear()
        self.responses.clear()

    def _watch(self, cycle: int) -> Any:
        v = self.rsp_valid.value
        if not (v.is_resolvable and int(v) == 1):
            return self._rise
        pd = self._rsp_pd()
        if pd is None:
            self.violation_ap.write(f"cycle {cycle}: CSB response with X/Z")
            return None
        kind = "write" if pd >> RSP_WRITE_BIT & 1 else "read"
        if not self.expected:
            self.violation_ap.write(f"cycle {cycle}: CSB {kind} response 0x{pd:09x} with no access owing one")
            return None
        want, addr = self.expected.popleft()
        if kind != want:
            self.violation_ap.write(f"cycle {cycle}: CSB {kind} response to the {want} of 0x{addr:x}")
        if pd >> RSP_ERROR_BIT & 1:
            self.violation_ap.write(f"cycle {cycle}: CSB error bit set in the response to the {want} of 0x{addr:x}")
        if want == "read":
            self.responses.append(pd & 0xFFFFFFFF)
        self.arrived.set()
        return None

    async def _send(self, packet: int) -> None:
        await FallingEdge(self.clock)
        self.pd.value = packet
        await valid_until_ready(self.clock, self.pvld, self.prdy)

    async def _response(self, owed: int) -> None:
        """Wait until at most ``owed`` responses are still owed (TIMEOUT cycles per response)."""
        waited = 0
        while len(self.expected) > owed:
            if waited > TIMEOUT * (len(self.expected) - owed):
                what = self.expected[0]
                self.violation_ap.write(f"no CSB response to the {what[0]} of 0x{what[1]:x} in {waited} cycles")
                self.expected.popleft()
                continue
            await RisingEdge(self.clock)
            waited += 1

    async def write(self, addr: int, data: int, nposted: bool = False) -> None:
        """A posted write (returns once the request is taken) or a non-posted one (returns at its response)."""
        self.accesses["nposted" if nposted else "write"] += 1
        if nposted:
            self.expected.append(("write", addr))
        await self._send(request(addr, data, write=True, nposted=nposted))
        if nposted:
            await self._response(0)

    async def read(self, addr: int) -> int:
        self.accesses["read"] += 1
        self.expected.append(("read", addr))
        await self._send(request(addr))
        await self._response(0)
        return self.responses.popleft() if self.responses else -1


class CsbSender(Sender):
    """Hands a job to an NVDLA client over CSB (the sender of
    :class:`dlaverif.platform.control_pipelined.PipelinedJobs`): waits for a free register group, points the producer at
    it, writes the job's registers (``payload``: register name -> value; non-posted when the item says ``nposted``),
    reads them back when the item says ``readback`` (the readback is kept in ``item.readback``) and enables the group
    last."""

    def __init__(self, dut, clock, control: CsbControl, csb: CsbAgent, period_ns: int) -> None:
        super().__init__(dut, clock, (), control.groups, period_ns)
        self.control, self.csb = control, csb
        self.regs = control.regs()

    async def send(self, item: ReaderItem, payload: Mapping[str, int]) -> None:
        self._payload = payload
        self._item = item
        await super().send(item, {})

    async def handshake(self) -> bool:
        regs, csb, item = self.regs, self.csb, self._item
        nposted = bool(getattr(item, "nposted", False))
        ptr_reg, ptr_field = self.control.pointer
        await csb.write(
            regs.address(ptr_reg), regs.value(ptr_reg, **{ptr_field: self.accepted % self.control.groups}), nposted
        )
        for name, value in self._payload.items():
            await csb.write(regs.address(name), value, nposted)
        if getattr(item, "readback", False):
            item.readback = {name: await csb.read(regs.address(name)) for name in self._payload}
        en_reg, en_field = self.control.enable
        await csb.write(regs.address(en_reg), regs.value(en_reg, **{en_field: 1}), nposted)
        return True


def sender_for(tb: Any, control: CsbControl) -> CsbSender:
    """The CSB agent on the binding's port (kept as ``tb.csb`` for the block's hooks; its protocol checks reach the
    scoreboard with the TB's other violations) and its job sender."""
    tb.csb = CsbAgent(tb.dut, tb.clk, tb.backend.loop, control, tb.binding.signal)
    tb.extra_violations.append(tb.csb.violation_ap)
    return CsbSender(tb.dut, tb.clk, control, tb.csb, tb.binding.period_ns)


def readback_problems(item: Any, payload: Mapping[str, int], masks: Optional[Mapping[str, int]] = None) -> list[str]:
    """The registers whose readback (``item.readback``) differs from what was written (``masks``: the bits each
    register keeps, all 32 by default)."""
    got = getattr(item, "readback", None) or {}
    out = []
    for name, value in got.items():
        m = (masks or {}).get(name, 0xFFFFFFFF)
        if value & m != payload[name] & m:
            out.append(f"CSB read of {name} gave 0x{value:08x}, 0x{payload[name] & m:08x} written (mask 0x{m:08x})")
    return out
