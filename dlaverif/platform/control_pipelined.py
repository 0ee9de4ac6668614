"""Jobs handed over on a descriptor port (several in flight, up to the binding's ``queue_depth``) or on start/done
pins (one at a time), ended by a completion pulse on the binding's ``done`` port, and framed into their outputs by
what the binding says that completion means (:mod:`dlaverif.platform.completion`: in job order, or by the stream's tag).

A sender hands one job over and returns at the handshake (:class:`DescriptorSender`: ``valid``/``ready`` and the
payload's field ports; :class:`PinSender`: the payload's field ports and a one-cycle ``start`` pulse);
:class:`PipelinedJobs` counts completions on the backend's clock loop, keeps the footprint of every job in flight
in the read checker, and at :meth:`PipelinedJobs.settle` waits for every completion and a quiet stream; each AR
burst, R beat and read violation of a batch goes to its own job (:mod:`dlaverif.platform.attribution`).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, Event, FallingEdge, First, RisingEdge

from dlaverif.agents.analysis import JobLog
from dlaverif.footprint import Region
from dlaverif.platform.attribution import CYCLE, Span, attribute
from dlaverif.platform.binding import DescriptorControl, PinControl
from dlaverif.platform.checks import stream_field_problems
from dlaverif.platform.completion import frame
from dlaverif.platform.control import JobControl
from dlaverif.platform.job import JobResult, ReaderItem


async def valid_until_ready(clock, valid, ready, limit: Optional[int] = None) -> bool:
    """Raise ``valid`` (its payload already driven) until the rising edge that sees ``ready``; drop it at the
    falling edge after. ``limit``: give up after that many rising edges without ``ready`` (``valid`` dropped, returns
    False: the DUT takes no job); True at the handshake."""
    valid.value = 1
    waited = 0
    while True:
        await RisingEdge(clock)
        if ready.value.is_resolvable and int(ready.value) == 1:
            break
        waited += 1
        if limit is not None and waited >= limit:
            await FallingEdge(clock)
            valid.value = 0
            return False
    await FallingEdge(clock)
    valid.value = 0
    return True


class Sender:
    """How :class:`PipelinedJobs` hands a job to the DUT (a subclass implements :meth:`handshake`, or :meth:`send` for
    a transfer of several steps, as ``dlaverif.agents.nvdla.csb.CsbSender`` does): drives a job's payload on falling
    edges and counts the jobs in flight (handed over, completion not yet seen).

    What :class:`PipelinedJobs` reads of it: ``depth`` (the most jobs in flight), ``filling`` (``depth`` is the DUT's
    own capacity), ``ports`` (payload field -> port: the coverage's field widths), ``completed`` and ``room`` (which
    it updates at every completion pulse), :meth:`send`, :meth:`in_flight` and :meth:`stuck`."""

    #: ``depth`` is the DUT's capacity (:func:`in_flight`), so that its queues fill; only a descriptor port's sender
    filling: bool = False

    def __init__(self, dut, clock, fields: tuple[tuple[str, str], ...], depth: int, period_ns: int) -> None:
        self.clock, self.period_ns, self.depth = clock, period_ns, depth
        self.timeout = 100_000  # cycles without a completion while the DUT holds ``depth`` jobs: a stuck DUT
        self.ports = {name: getattr(dut, port) for name, port in fields}
        self.accepted = 0  # jobs the DUT took
        self.completed = 0  # completions seen
        self.room = Event()  # set when a completion frees a slot
        self.taken: list[tuple[str, int]] = []  # every job the DUT took since the last reset: label, cycle

    def in_flight(self) -> int:
        return self.accepted - self.completed

    def stuck(self) -> str:
        """The job a hang is blamed on: the oldest in flight (completions come in job order), with its hand-over
        cycle; "" when none is in flight."""
        k = len(self.taken) - self.in_flight()
        if self.in_flight() <= 0 or not 0 <= k < len(self.taken):
            return ""
        label, cycle = self.taken[k]
        return f"job {label} (handed over at cycle {cycle}) has no completion"

    async def send(self, item: ReaderItem, payload: dict[str, int]) -> None:
        """Offer the job after its gap once fewer than ``depth`` jobs are in flight; return at the handshake, with
        its cycle and the jobs in flight then (this one included) in ``item.result``."""
        if item.gap:
            await ClockCycles(self.clock, item.gap, rising=False)
        while self.in_flight() >= self.depth:  # until a completion frees a slot (a stuck DUT stops the test here)
            self.room.clear()
            await First(self.room.wait(), ClockCycles(self.clock, self.timeout))
            await FallingEdge(self.clock)
            assert self.room.is_set(), (
                f"protocol error: hang: {self.stuck()} for {self.timeout} cycles, {self.in_flight()} job(s) in "
                f"flight; {item.get_name()} waits to be handed over"
            )
        for name, port in self.ports.items():
            port.value = int(payload[name])
        took = await self.handshake()
        now = int(get_sim_time("ns") // self.period_ns)
        assert took, (
            f"protocol error: hang: the DUT took no job for {self.timeout} cycles (ready low) while offered "
            f"{item.label()} at cycle {now}, "
            + (
                f"{self.in_flight()} job(s) in flight: {self.stuck()} (is queue_depth {self.depth} more than the "
                f"DUT accepts?)"
                if self.in_flight() > 0
                else "no job in flight"
            )
        )
        res = item.response()
        res.accepted = now
        self.accepted += 1
        self.taken.append((item.label(), now))
        res.in_flight = self.in_flight()

    async def handshake(self) -> bool:
        """Hand the driven payload over; False when the DUT did not take it within :attr:`timeout` cycles."""
        raise NotImplementedError


#: the run's choice of the jobs a descriptor port's bench keeps in flight: unset (or empty), the binding's
#: ``queue_depth``; ``capacity``, the DUT's own (``DutBinding.capacity`` at its parameters), so that its queues fill
#: at every configuration (a plan's ``configs.tops.<top>.env``)
IN_FLIGHT_VAR = "IN_FLIGHT"
IN_FLIGHT_CHOICES = ("capacity",)


def in_flight_choice() -> str:
    """:data:`IN_FLIGHT_VAR` of the environment ("" when unset); ValueError (one line) on a value not allowed (each
    test of the run then fails with that line, in ``make sim``'s summary too)."""
    choice = os.environ.get(IN_FLIGHT_VAR, "").strip()
    if choice and choice not in IN_FLIGHT_CHOICES:
        raise ValueError(f"{IN_FLIGHT_VAR}={choice}: expected {' or '.join(IN_FLIGHT_CHOICES)} (or leave it unset)")
    return choice


class DutParameters:
    """The DUT's top-level parameters as integers by attribute (``p.SLOTS``): cocotb shows a top's parameters on
    Verilator and Icarus alike; a name the DUT does not have raises AttributeError naming it."""

    def __init__(self, dut: Any) -> None:
        self._dut = dut

    def __getattr__(self, name: str) -> int:
        try:
            return int(getattr(self._dut, name).value)
        except AttributeError:
            raise AttributeError(f"the DUT {self._dut._name} has no parameter {name}") from None


def in_flight(dut: Any, control: DescriptorControl, capacity: Optional[Callable[[Any], int]]) -> tuple[int, bool]:
    """The jobs the bench keeps in flight on ``control``'s port (``capacity``: the binding's) and whether that is the
    DUT's capacity (:data:`IN_FLIGHT_VAR`); ValueError (one line) on another value, or on ``capacity`` for a binding
    that declares none."""
    if not in_flight_choice():
        return control.queue_depth, False
    if capacity is None:
        raise ValueError(f"{IN_FLIGHT_VAR}=capacity: the binding declares no capacity (DutBinding.capacity)")
    depth = int(capacity(DutParameters(dut)))
    if depth < 1:
        raise ValueError(f"{IN_FLIGHT_VAR}=capacity: the binding's capacity at this DUT is {depth}, not 1 or more")
    return depth, True


class DescriptorSender(Sender):
    """``valid`` with the payload until the rising edge that sees ``ready``; up to :func:`in_flight` jobs in flight
    (``filling``: the DUT's capacity)."""

    def __init__(
        self, dut, clock, control: DescriptorControl, period_ns: int, capacity: Optional[Callable[[Any], int]] = None
    ) -> None:
        depth, self.filling = in_flight(dut, control, capacity)
        super().__init__(dut, clock, control.fields, depth, period_ns)
        self.valid, self.ready = getattr(dut, control.valid), getattr(dut, control.ready)
        self.valid.value = 0

    async def handshake(self) -> bool:
        return await valid_until_ready(self.clock, self.valid, self.ready, self.timeout)


class PinSender(Sender):
    """A one-cycle ``start`` pulse with the payload on its field ports; one job at a time."""

    def __init__(self, dut, clock, control: PinControl, period_ns: int) -> None:
        super().__init__(dut, clock, control.fields, 1, period_ns)
        self.start = getattr(dut, control.start)
        self.start.value = 0

    async def handshake(self) -> bool:
        self.start.value = 1
        await RisingEdge(self.clock)
        await FallingEdge(self.clock)
        self.start.value = 0
        return True


def spans_hold(span: Span, violation: str) -> bool:
    """The job of ``span`` was in flight at the cycle ``violation`` names."""
    at = CYCLE.search(violation)
    lo, hi = span
    return at is not None and lo <= int(at.group(1)) and (hi is None or int(at.group(1)) <= hi)


class PipelinedJobs(JobControl):
    """Jobs handed over by ``sender``, completed by pulses on ``done`` (one cycle per job, in job order); ``tag``:
    the payload field the stream carries in TUSER (the output is then paired with its job by it), or None."""

    def __init__(
        self, tb: Any, sender: Sender, done: str, tag: Optional[str], idle: int = 32, timeout: int = 100_000
    ) -> None:
        super().__init__(tb)
        self.sender, self.tag, self.idle, self.timeout = sender, tag, idle, timeout
        self.fill = sender.depth if sender.filling else 0
        self.field_bits = {name: len(port) for name, port in sender.ports.items()}
        self.most_in_flight = 0  # the most jobs in flight at a hand-over (this one included), since the TB was built
        self.done = tb.binding.signal(tb.dut, done)
        self._done_rise = RisingEdge(self.done)
        self.completions: list[int] = []  # the cycle of every completion pulse
        # the completion's payload (DescriptorControl.status): its ports, and their values at every completion pulse
        self.status_ports = {n: tb.binding.signal(tb.dut, p) for n, p in getattr(tb.binding.control, "status", ())}
        self.statuses: list[dict[str, Optional[int]]] = []
        self.pending: list[ReaderItem] = []  # handed over since the last settle
        self.regions: list[Region] = []  # the footprint of the jobs since the last settle
        self.footprints: dict[str, list[Region]] = {}  # each of those jobs' own footprint, by name
        # settled, not yet split: jobs, completions, the completions' status payloads
        self.batches: list[tuple[list[ReaderItem], list[int], list[dict[str, Optional[int]]]]] = []
        self.seen: dict[str, dict[str, list]] = {}  # split, per job name
        self.errors: dict[str, list[str]] = {}  # protocol errors per job name
        self.out = JobLog(out=tb.out.ap, ar=tb.mem.ar_ap)  # to tell when the stream went quiet; reads after a reset
        tb.backend.loop.add(self._watch_done)  # the backend's clock loop (either path)

    def _watch_done(self, cycle: int) -> Any:
        """Per rising edge: a completion pulse (while ``done`` is low, sleep until it rises; while high, look again
        at the next edge: a pulse per cycle for jobs completing back to back)."""
        v = self.done.value
        if not (v.is_resolvable and int(v) == 1):
            return self._done_rise
        if not self.tb.in_reset():
            self.completions.append(cycle)
            self.statuses.append(
                {n: int(p.value) if p.value.is_resolvable else None for n, p in self.status_ports.items()}
            )
            self.sender.completed += 1
            self.sender.room.set()
        return None

    async def run(self, item: ReaderItem) -> None:
        tb = self.tb
        own = tb.regions(item)
        self.footprints[item.get_name()] = own
        self.regions += own
        tb.prepare(item, tb.pieces(item), item.faults, legal=item.legal, clear=not self.pending)
        tb.reads.expect(self.regions)  # every job in flight may be reading
        item.result = JobResult(status=None)
        self.pending.append(item)
        # a hang (no completion, or the DUT takes no job) is given up on after the pending jobs' own hang bounds
        self.sender.timeout = min(self.timeout, sum(j.timeout_cycles(tb.bus_bytes) for j in self.pending))
        await self.sender.send(item, tb.payload(item))
        self.most_in_flight = max(self.most_in_flight, item.response().in_flight or 0)
        if item.resets:
            await self.reset_in_flight(item)

    async def reset_in_flight(self, item: ReaderItem, quiet: int = 16) -> None:
        """A reset ``item.reset_after`` cycles after the RESET job was handed over: every job handed over since the
        last settle (this one included) is dropped, reported as such (``dropped``: the reset's cycle) and checked for
        its reads only; the DUT must then come back clean: for ``quiet`` cycles after the reset no AR (the read
        checker allows none), no output transfer and no completion (else the test stops here with one line naming the
        reset), and it takes the next job as after power-up."""
        tb = self.tb
        assert item.reset_after is not None, "a RESET job says when to reset"
        await ClockCycles(tb.clk, item.reset_after)
        jobs, at = self.pending, int(get_sim_time("ns") // tb.binding.period_ns)
        for job in jobs:
            job.response().dropped = at
        await tb.reset()  # clear(): the sender forgets the jobs in flight
        tb.reads.expect_none()  # nothing may be read now
        out_before, ar_before = self.out.count("out"), self.out.count("ar")
        await ClockCycles(tb.clk, quiet)
        await tb.flush()  # the fast path's logs of those cycles (the default agents published them already)
        problems = []
        if self.out.count("ar") > ar_before:
            problems.append(f"{self.out['ar'][ar_before]} within {quiet} cycles after the reset")
        if self.completions:
            problems.append(f"{len(self.completions)} completion(s) within {quiet} cycles after the reset")
        late = self.out.count("out") - out_before
        if late:
            problems.append(f"{late} output transfer(s) within {quiet} cycles after the reset")
        # the DUT's state is unknown from here on (the next jobs would hang or babble): the test stops with this line
        assert not problems, (
            f"protocol error: the DUT did not come back clean from the reset at cycle {at} (RESET job "
            f"{item.label()}, {len(jobs)} job(s) dropped in flight): " + "; ".join(problems)
        )
        self.out.take()
        self.completions, self.statuses = [], []
        self.batches.append((jobs, [], []))
        self.finished += jobs

    async def settle(self) -> None:
        """Wait for the completions of every job handed over and ``idle`` quiet cycles of the stream. A hung job is
        given up on after ``timeout`` cycles, or sooner: the sum of the pending jobs' own hang bounds
        (``ReaderItem.timeout_cycles``)."""
        if not self.pending:
            return
        clk, waited = self.tb.clk, 0
        bound = min(self.timeout, sum(j.timeout_cycles(self.tb.bus_bytes) for j in self.pending))
        while self.sender.in_flight() > 0 and waited < bound:
            await ClockCycles(clk, 16)
            waited += 16
        seen = -1
        while seen != self.out.count("out"):
            seen = self.out.count("out")
            await ClockCycles(clk, self.idle)
            await self.tb.flush()  # the fast path publishes what its HDL logged (the default agents did already)
        self.tb.publish_assertions()  # the design's failures during the batch, attributed to its jobs in flight
        self.out.take()
        done, self.completions = self.completions, []
        statuses, self.statuses = self.statuses, []
        self.batches.append((self.pending, done, statuses))
        self.finished += self.pending
        self.pending, self.regions = [], []

    def split(self, item: ReaderItem, log: JobLog) -> dict[str, list]:
        """Frame the settled batch that holds ``item`` (its first job takes the log) and give ``item`` its share:
        its transfers, AR bursts, R beats and read violations."""
        name = item.get_name()
        if name not in self.seen:
            self._frame(log.take())
        return self.seen.pop(name)

    def _frame(self, got: dict[str, list]) -> None:
        jobs, completions, statuses = self.batches.pop(0)
        tags = [self.tb.payload(j)[self.tag] for j in jobs] if self.tag is not None else None
        names = [j.get_name() for j in jobs]
        if jobs and jobs[0].response().dropped is not None:  # dropped by a reset: reads attributed, output unframed
            prints = [self.footprints.pop(n, []) for n in names]
            reads = attribute(prints, got["ar"], got["r"], got["violations"])
            for name, share in zip(names, reads):
                self.seen[name] = {"out": [], "ar": share.ar, "r": share.r, "violations": share.violations}
            return
        framing = frame(names, list(got["out"]), completions, self.tb.binding.completion, tags)
        spans = [
            (j.response().accepted or 0, max((c for c in (f.completed, f.closed) if c is not None), default=None))
            for j, f in zip(jobs, framing.jobs)
        ]
        prints = [self.footprints.pop(n, []) for n in names]
        reads = attribute(prints, got["ar"], got["r"], got["violations"], spans)
        ids = getattr(self.tb.binding.control, "stream_fields", ())
        for job, framed, share in zip(jobs, framing.jobs, reads):
            # the design's failed assertions in the job's span: its own problems (jobs in flight then, by name)
            failed = [v for v in share.violations if v.startswith(("ASSERT ", "ASSUME "))]
            if failed:
                names_then = ", ".join(n for n, (lo, hi) in zip(names, spans) if spans_hold((lo, hi), failed[0]))
                then = f"job(s) in flight then: {names_then}" if names_then else "no job in flight then"
                self.errors.setdefault(framed.name, []).extend(
                    f"{v}, charged to {framed.name} ({then})" for v in failed
                )
            own = [v for v in share.violations if v not in failed]
            self.seen[framed.name] = {"out": framed.beats, "ar": share.ar, "r": share.r, "violations": own}
            job.response().done_cycle = framed.completed
            if ids:  # TID/TDEST...: every transfer of the job carries its payload's value
                want = tuple(int(self.tb.payload(job)[f]) for _, f in ids)
                names_ids = tuple(s for s, _ in ids)
                for p in stream_field_problems(framed.name, framed.beats, names_ids, want):
                    self.errors.setdefault(framed.name, []).append(p)
        for e in framing.errors:
            self.errors.setdefault(e.job or names[0], []).append(str(e))
        for k, (job, got_status) in enumerate(zip(jobs, statuses)):
            want = self.tb.status(job)
            wrong = [f"{n}={got_status.get(n)}, expected {v}" for n, v in want.items() if got_status.get(n) != v]
            if wrong:
                self.errors.setdefault(job.get_name(), []).append(
                    f"completion status of {job.label()} at cycle {completions[k]} (completion #{k} of the batch): "
                    + "; ".join(wrong).replace("=None", "=X")
                )

    def protocol_problems(self, item: ReaderItem) -> list[str]:
        return self.errors.pop(item.get_name(), [])

    def clear(self) -> None:
        """A reset forgets the jobs in flight and their completions (a RESET job has published them as dropped,
        :meth:`reset_in_flight`)."""
        self.pending, self.regions, self.completions, self.statuses = [], [], [], []
        self.sender.completed = self.sender.accepted
        self.sender.taken = []
