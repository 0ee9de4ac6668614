"""What the stimulus reached (``dlaverif.platform.reach``), without a simulator: AR bursts and R beats written by
hand with their cycles, the expected address bit, reads in flight and pages worked out here."""

from __future__ import annotations

import json

import numpy as np

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.agents.axi_mem import Burst, RBeat, RBeatBatch
from dlaverif.platform import reach

BW = 32  # 256-bit bus: ARSIZE 5


def _ar(addr: int, beats: int, cycle: int) -> Burst:
    return Burst(arid=0, addr=addr, len=beats - 1, size=5, burst=1, cycle=cycle)


class _Mem:
    def __init__(self) -> None:
        self.ar_ap, self.r_ap = AnalysisPort("ar"), AnalysisPort("r")


def test_highest_address_bit_of_the_last_byte():
    mem = _Mem()
    r = reach.AxiReach(64).connect(mem)
    mem.ar_ap.write(_ar(0x1000, 1, 1))
    assert r.record()["top_bit"] == 12
    mem.ar_ap.write(_ar((1 << 63) - BW, 2, 2))  # its second beat's last byte is at 2**63 + 31
    assert r.record()["top_bit"] == 63
    mem.ar_ap.write(_ar((1 << 64) - BW, 1, 3))
    assert r.record()["top_bit"] == 63  # bit 63 is the highest there is


def test_reads_in_flight_from_the_cycle_stamps():
    """Three bursts accepted at cycles 1, 2, 3; the first answered (RLAST) at cycle 3, after the third was
    accepted at the same cycle: 3 in flight at cycle 3 (an RLAST counts from the cycle after it)."""
    mem = _Mem()
    r = reach.AxiReach(40).connect(mem)
    for c in (1, 2, 3):
        mem.ar_ap.write(_ar(0x2000 * c, 1, c))
    mem.r_ap.write(RBeat(0x2000, 0, True, 3))
    mem.ar_ap.write(_ar(0x9000, 1, 4))  # one answered by then: 3 in flight again
    mem.r_ap.write(RBeatBatch(np.array([0x4000, 0x6000]), np.zeros(2), np.array([True, True]), np.array([5, 6])))
    mem.ar_ap.write(_ar(0xA000, 1, 7))  # 2 in flight
    assert r.record()["most_in_flight"] == 3
    assert r.record()["most_beats_in_flight"] == 3  # one-beat bursts: beats are bursts


def test_beats_in_flight_count_every_beat_returned():
    """A 4-beat burst at cycle 1 and an 8-beat one at cycle 2: 12 beats asked; two beats of the first back at
    cycles 3 and 4; a 1-beat burst at cycle 5: 12 + 1 - 2 = 11; the max stays 12 (at cycle 2)."""
    mem = _Mem()
    r = reach.AxiReach(40).connect(mem)
    mem.ar_ap.write(_ar(0x1000, 4, 1))
    mem.ar_ap.write(_ar(0x2000, 8, 2))
    mem.r_ap.write(RBeat(0x1000, 0, False, 3))
    mem.r_ap.write(RBeat(0x1020, 0, False, 4))
    mem.ar_ap.write(_ar(0x3000, 1, 5))
    rec = r.record()
    assert rec["most_beats_in_flight"] == 12 and rec["most_in_flight"] == 3


def test_a_reset_drops_the_reads_in_flight():
    mem = _Mem()
    r = reach.AxiReach(40).connect(mem)
    for c in (1, 2):
        mem.ar_ap.write(_ar(0x1000 * c, 1, c))
    r.restart()  # their RLAST never comes
    mem.ar_ap.write(_ar(0x8000, 1, 20))
    assert r.record()["most_in_flight"] == 2


def test_longest_contiguous_run_in_pages_across_interleaved_streams():
    mem = _Mem()
    r = reach.AxiReach(40).connect(mem)
    # stream A: 0x0FE0 .. 0x3000 in three bursts, stream B between them at 0x100000
    mem.ar_ap.write(_ar(0x0FE0, 1, 1))  # 0x0FE0..0x1000: page 0
    mem.ar_ap.write(_ar(0x100000, 4, 2))
    mem.ar_ap.write(_ar(0x1000, 128, 3))  # page 1
    mem.ar_ap.write(_ar(0x100080, 4, 4))
    mem.ar_ap.write(_ar(0x2000, 1, 5))  # page 2: pages 0..2 in one run
    assert r.record()["longest_pages"] == 3
    mem.ar_ap.write(_ar(0x5000, 1, 6))  # not contiguous: a run of its own
    assert r.record()["longest_pages"] == 3


def test_record_file_merge_limits_and_holes(tmp_path):
    mem = _Mem()
    r = reach.AxiReach(64).connect(mem)
    mem.ar_ap.write(_ar((1 << 63) + 0x1000, 1, 1))
    path = reach.write_record(r, "config_commands/ready=0.4", tmp_path)
    assert path.name == "reach_config_commands_ready_0.4.json"
    one = json.loads(path.read_text())
    two = {"top_bit": 40, "most_in_flight": 255, "most_beats_in_flight": 900, "longest_pages": 9, "bursts": 7}
    merged = reach.merge(reach.read_records([tmp_path]) + [two])
    assert merged == {
        "top_bit": 63,
        "most_in_flight": 255,
        "most_beats_in_flight": 900,
        "most_jobs_in_flight": 0,  # no descriptor port: no job counted (records without the field count 0)
        "longest_pages": 9,
        "bursts": 8,
        "occupancy": {},  # no probe watched in either record
        "lanes": {},
    }
    assert reach.merge([{**two, "most_jobs_in_flight": 9}, two])["most_jobs_in_flight"] == 9
    assert one["top_bit"] == 63 and one["most_in_flight"] == 1
    limits = reach.limits({"AXI_ADDR_W": 64, "MAX_OUTSTANDING": 255, "AXI_DATA_W": 256})
    assert limits == {"top_bit": 63, "most_in_flight": 255}
    assert reach.limits({"AXI_ADDR_W": 40, "DATA_DEPTH": 1024}) == {"top_bit": 39}  # queues: not on the bus
    assert reach.limits({"ADDR_W": 12, "MAX_OUTSTANDING": 1}) == {"top_bit": 11, "most_in_flight": 1}
    assert reach.holes(merged, limits) == []
    assert reach.holes({**merged, "most_in_flight": 128}, limits) == ["most_in_flight 128 of 255"]
    assert reach.holes({}, limits) == ["most_in_flight: no record", "top_bit: no record"]
    assert reach.merge([]) == {}


def test_occupancy_merges_the_deepest_and_holes_name_each_queue_below_its_depth():
    """Two records of probes: per queue the deeper one; a queue below its depth, or never recorded, is a hole."""
    a = {"top_bit": 39, "most_in_flight": 4, "longest_pages": 1, "bursts": 1, "occupancy": {"dat": 160, "wgs": 1}}
    b = {"top_bit": 39, "most_in_flight": 4, "longest_pages": 1, "bursts": 1, "occupancy": {"wgs": 7, "ent": 3}}
    merged = reach.merge([a, b])
    assert merged["occupancy"] == {"dat": 160, "ent": 3, "wgs": 7}
    depth = {"dat": 160, "wgs": 32, "ent": 512, "wmb": 32}
    assert reach.holes(merged, {"top_bit": 39}, depth) == [
        "occupancy ent 3 of 512",
        "occupancy wgs 7 of 32",
        "occupancy wmb: no record",
    ]
    assert reach.holes({}, {}, {"dat": 4}) == ["occupancy dat: no record"]


def test_probe_depths_come_from_the_parameters():
    from dlaverif.flow import contracts

    probes = (
        reach.Probe("dat", "u_fetch.u_q_dat.count", "DATA_DEPTH"),
        reach.Probe("tags", "u_t.count", "MAX_OUTSTANDING + 1"),
    )
    assert reach.depths(probes, {"DATA_DEPTH": 1024, "MAX_OUTSTANDING": 64}, contracts.evaluate) == {
        "dat": 1024,
        "tags": 65,
    }


def test_probes_travel_in_one_variable_and_are_made_readable_on_verilator():
    probes = (reach.Probe("dat", "u_fetch.u_q_dat.count", "DATA_DEPTH"), reach.Probe("bt", "u_shell.u_eng.outs", "M"))
    text = reach.encode(probes)
    assert text == "dat=u_fetch.u_q_dat.count;bt=u_shell.u_eng.outs"
    assert reach.decode(text) == {"dat": "u_fetch.u_q_dat.count", "bt": "u_shell.u_eng.outs"}
    assert reach.decode("") == {}
    assert reach.verilator_config(probes).splitlines() == [
        "`verilator_config",
        'public_flat_rd -module "*" -var "count"',
        'public_flat_rd -module "*" -var "outs"',
    ]


def test_a_probe_the_simulation_could_not_carry_is_refused():
    import pytest

    with pytest.raises(ValueError, match="not a dotted hierarchical name"):
        reach.Probe("dat", "u_fetch.count;x=y", "D").check("configs.tops.t.occupancy")
    with pytest.raises(ValueError, match="not an identifier"):
        reach.Probe("data queue", "u.count", "D").check("configs.tops.t.occupancy")


def test_beat_lanes_merge_the_narrowest_and_widest_and_holes_want_one_lane_and_the_bus():
    """Per beat-lanes probe the narrowest of the records that saw a beat (0: none) and the widest; a probe without
    a one-lane beat, without a beat of every lane, or never recorded is a hole."""
    base = {"top_bit": 39, "most_in_flight": 4, "longest_pages": 1, "bursts": 1}
    a = {**base, "lanes": {"fetch": [4, 32]}}
    b = {**base, "lanes": {"fetch": [0, 0], "other": [1, 8]}}  # fetch took no beat in b
    merged = reach.merge([a, b])
    assert merged["lanes"] == {"fetch": [4, 32], "other": [1, 8]}
    assert reach.holes(merged, {}, {}, {"fetch": 32, "other": 8}) == ["lanes fetch: narrowest beat 4 lanes, not 1"]
    assert reach.holes(merged, {}, {}, {"other": 16, "gone": 4}) == [
        "lanes gone: no record",
        "lanes other: widest beat 8 of 16 lanes",
    ]
    assert reach.merge([a, {**base, "lanes": {"fetch": [1, 2]}}])["lanes"] == {"fetch": [1, 32]}
    assert reach.holes({}, {}, {}, {"fetch": 32}) == ["lanes fetch: no record"]


def test_beat_lanes_probes_travel_with_their_three_paths_and_count_apart_from_queues():
    from dlaverif.flow import contracts

    probes = (
        reach.Probe("dat", "u_fetch.u_q_dat.count", "DATA_DEPTH"),
        reach.Probe("fetch", "u_fetch.rd_fire", "AXI_DATA_W // 8", "u_fetch.rd_lo", "u_fetch.rd_hi"),
    )
    text = reach.encode(probes)
    assert text == "dat=u_fetch.u_q_dat.count;fetch=u_fetch.rd_fire,u_fetch.rd_lo,u_fetch.rd_hi"
    assert reach.decode(text)["fetch"] == "u_fetch.rd_fire,u_fetch.rd_lo,u_fetch.rd_hi"
    assert reach.verilator_config(probes).count("public_flat_rd") == 4  # count, rd_fire, rd_hi, rd_lo
    params = {"DATA_DEPTH": 160, "AXI_DATA_W": 512}
    assert reach.depths(probes, params, contracts.evaluate) == {"dat": 160}
    assert reach.depths(probes, params, contracts.evaluate, lanes=True) == {"fetch": 64}
    import pytest

    with pytest.raises(ValueError, match="both lo and hi"):
        reach.Probe("fetch", "u.fire", "8", "u.lo").check("configs.tops.t.beat_lanes")
