"""The cube reader's coverage bins sampled from observed behaviour (blocks/cube_reader/coverage.py): 4 KB splits of
the AR bursts the memory saw, and the AXI response the job ended with."""

from __future__ import annotations

from blocks.cube_reader.coverage import axi_resp, split_at_4k
from dlaverif.agents.axi_mem import Burst


def _b(addr: int, beats: int, size: int = 5) -> Burst:
    return Burst(arid=0, addr=addr, len=beats - 1, size=size, burst=1, cycle=0)


def test_a_run_split_at_a_4kb_boundary_is_seen():
    assert split_at_4k([_b(0x1F80, 4), _b(0x2000, 8)])  # 0x1F80 + 4*32 = 0x2000
    assert not split_at_4k([_b(0x1F80, 4), _b(0x3000, 8)])  # the second burst starts a page, but no run reached it
    assert not split_at_4k([_b(0x1000, 4), _b(0x1080, 4)])  # contiguous, inside one page
    assert not split_at_4k([_b(0x2000, 4)])  # a burst starting a page alone is no split
    assert split_at_4k([_b(0x0FC0, 1, 6), _b(0x1000, 2, 6)])  # 64-byte beats


def test_axi_response_of_a_job():
    assert axi_resp(set(), "cube") == "OKAY"
    assert axi_resp({"bus_slverr"}, "bus_error") == "SLVERR"
    assert axi_resp({"bus_decerr"}, "bus_error") == "DECERR"
    assert axi_resp({"layout"}, "illegal") is None  # a validator error is no AXI response
    assert axi_resp(set(), "reset") is None
