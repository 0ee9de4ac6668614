"""Each AR burst, R beat and read violation of a batch of jobs in flight goes to its own job
(dlaverif/platform/attribution.py): by footprint, in job order, R beats dealt out in AR order."""

from __future__ import annotations

from dlaverif.agents.axi_mem import Burst, RBeat
from dlaverif.footprint import Region
from dlaverif.platform.assertions import Failure
from dlaverif.platform.attribution import attribute, burst_owners, in_flight

BUS = 8


def burst(addr: int, beats: int = 1, cycle: int = 0) -> Burst:
    return Burst(arid=0, addr=addr, len=beats - 1, size=3, burst=1, cycle=cycle)


def beat(addr: int, cycle: int) -> RBeat:
    return RBeat(addr - addr % BUS, 0, True, cycle)


A = [Region("a", 0x1003, 0x1013)]  # unaligned: words 0x1000, 0x1008, 0x1010
B = [Region("b", 0x2000, 0x2009)]
C = [Region("c", 0x2000, 0x2009)]  # the same bytes as B


def test_each_burst_and_its_beats_go_to_the_job_whose_footprint_it_reads():
    ars = [burst(0x1003), burst(0x1008), burst(0x2000, beats=2), burst(0x1010)]
    rs = [beat(0x1003, 5), beat(0x1008, 6), beat(0x2000, 7), beat(0x2008, 8), beat(0x1010, 9)]
    a, b = attribute([A, B], ars, rs, [])
    assert [x.addr for x in a.ar] == [0x1003, 0x1008, 0x1010] and [x.addr for x in b.ar] == [0x2000]
    assert [x.cycle for x in a.r] == [5, 6, 9] and [x.cycle for x in b.r] == [7, 8]  # ARLEN + 1 beats per burst


def test_jobs_reading_the_same_bytes_take_the_bursts_in_job_order():
    ars = [burst(0x1000), burst(0x2000), burst(0x2008), burst(0x2000), burst(0x2008)]
    assert burst_owners([A, B, C], ars) == [0, 1, 1, 1, 1]  # in order: never back to an earlier job
    assert burst_owners([B, C], [burst(0x2000)]) == [0]


def test_a_stray_read_stays_with_the_previous_burst_and_its_violation_goes_with_it():
    ars = [burst(0x1000), burst(0x2000), burst(0x9000)]
    stray = f"{ars[2]}: reads 0x9000..0x9007, outside the job's surfaces"
    other = "stream: TVALID dropped"
    a, b = attribute([A, B], ars, [beat(0x1000, 1), beat(0x2000, 2), beat(0x9000, 3), beat(0x9008, 4)], [stray, other])
    assert [x.addr for x in b.ar] == [0x2000, 0x9000]
    assert [x.cycle for x in b.r] == [2, 3, 4]  # a beat beyond every burst's count: the last burst's job
    assert b.violations == [stray] and a.violations == [other]


def test_no_reads_and_no_jobs():
    assert [(s.ar, s.r, s.violations) for s in attribute([A, B], [], [], [])] == [([], [], []), ([], [], [])]
    assert attribute([], [burst(0x1000)], [], []) == []


def test_a_failed_assertion_goes_to_every_job_in_flight_in_its_cycle():
    """A design assertion names its cycle (Failure.describe with the clock period): it is charged to the jobs handed
    over and not yet closed then, not to the batch's first job (nor, later, to "after the last job")."""
    spans = [(10, 40), (12, 90), (50, None)]  # job 0 closed at 40, job 2 never closed
    failed = Failure(600, "ASSERT", "top.u_props", "burst inside one 4 KB page").describe(10)  # cycle 60
    a, b, c = attribute([A, B, C], [], [], [failed], spans)
    assert (a.violations, b.violations, c.violations) == ([], [failed], [failed])
    assert in_flight(spans, 45) == [1] and in_flight(spans, 11) == [0]
    assert in_flight(spans, 5) == [0]  # before every job: the first
    assert in_flight([(10, 20), (30, 40)], 25) == [0]  # between jobs: the last one handed over before it
    # without spans (or without a cycle in the text) the old rule: the batch's first job
    assert attribute([A, B], [], [], [failed])[0].violations == [failed]
