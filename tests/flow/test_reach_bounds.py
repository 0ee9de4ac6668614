"""The weight reader's bound on reads in flight (``configs.tops.weight_reader.reach_bounds`` in its plan): the
expression the report cuts MAX_OUTSTANDING to, checked against the RTL's chunk size and against a transcription of
wr_fetch's issue rule (blocks/rtl/weight_reader/wr_fetch.sv, "offsets and reservations") searched at random, with
nothing ever returned (every read issued stays in flight)."""

from __future__ import annotations

import random
import re

from dlaverif.flow import contracts, project, testplan

RTL = project.ROOT / "blocks" / "rtl" / "weight_reader"
BW = 32  # bytes per bus word (a 256-bit bus); the rule is in bus words, so any width gives the same counts


def _chunk_beats() -> int:
    """CHUNK_BEATS of wr_fetch as the weight reader builds it (its default, which the instance does not set)."""
    fetch = (RTL / "wr_fetch.sv").read_text()
    top = (RTL / "weight_reader.sv").read_text()
    m = re.search(r"parameter\s+int\s+CHUNK_BEATS\s*=\s*(\d+)", fetch)
    assert m is not None and "CHUNK_BEATS" not in top.split("u_fetch (")[0].rsplit("wr_fetch", 1)[1]
    return int(m.group(1))


def _most_pieces(depth: int, chunk: int, growing: bool, rng: random.Random, space: int = 1 << 40) -> int:
    """Reads one stream issues before it can issue no more, none returned: a piece runs to the next chunk
    boundary or the limit and is issued when its beats fit (reserved + beats <= depth); a growing limit (the
    compressed weight data) issues a piece short of the boundary only when nothing is reserved or the limit is
    final. The limit grows at random (fixed from the start when not ``growing``), never beyond ``space`` bytes
    (the surface inside the address space, from a base at 0)."""
    ch = chunk * BW
    limit, final = (min(rng.randrange(1, 64 * ch), space), not growing)
    off = resv = pieces = 0
    for _ in range(4 * depth + 64):
        rem = max(limit - off, 0)
        to_bnd = ch - off % ch
        plen = min(rem, to_bnd)
        beats = (off + plen - 1) // BW - off // BW + 1 if plen else 0
        ok = rem > 0 and resv + beats <= depth and (not growing or rem >= to_bnd or final or resv == 0)
        if ok:
            off, resv, pieces = off + plen, resv + beats, pieces + 1
        elif growing and not final and limit < space:
            limit = min(limit + rng.choice((1, rng.randrange(1, BW), rng.randrange(1, 2 * ch))), space)
            final = rng.random() < 0.02
        else:
            break
    return pieces


def test_the_bound_is_the_rtl_chunk_rule_at_every_depth():
    chunk = _chunk_beats()
    bound = testplan.load().reach_bounds["weight_reader"]["most_in_flight"]
    rng = random.Random(1)
    for depth in (4, 5, 7, 32, 160):
        fixed = max(_most_pieces(depth, chunk, False, rng) for _ in range(300))
        grown = max(_most_pieces(depth, chunk, True, rng) for _ in range(3000))
        assert fixed == -(-depth // chunk)  # whole chunks and one short last piece: ceil(depth / chunk)
        assert grown <= (depth + 9) // 4  # at most three pieces shorter than a chunk at once
        per_stream = {"WGS_DEPTH": depth, "WMB_DEPTH": depth, "DATA_DEPTH": depth, "AXI_DATA_W": 256, "AXI_ADDR_W": 40}
        assert contracts.evaluate(bound.bound, per_stream) == 2 * fixed + (depth + 9) // 4
    assert chunk == 4  # the bound's expression is written for chunks of 4 bus words


def test_the_bound_cuts_max_outstanding_where_the_default_queues_cannot_fill_it():
    plan = testplan.load()
    bound = plan.reach_bounds["weight_reader"]["most_in_flight"]
    at = {
        name: contracts.resolve("weight_reader", plan.configs[f"weight_reader@{name}"].parameters)
        for name in ("axi_addr_w_max", "deep_queues_most_in_flight")
    }
    top, deep = at["axi_addr_w_max"], at["deep_queues_most_in_flight"]
    assert contracts.evaluate(bound.bound, top) < top["MAX_OUTSTANDING"]  # waived there: 64 cannot be in flight
    assert contracts.evaluate(bound.bound, deep) > deep["MAX_OUTSTANDING"]  # deep queues: 255 is the limit judged


def test_a_small_address_space_bounds_each_stream_by_its_chunks():
    """In a space of a few chunks (4 KB of 1024-bit words: 8 chunks of 512 bytes) a stream issues at most one read
    per chunk of the space, the growing weight data one more (the chunk it splits); the bound's address terms are
    those counts, and the 4 KB space is one page (one burst a piece at a 1024-bit bus)."""
    chunk = _chunk_beats()
    rng = random.Random(2)
    for chunks in (1, 2, 8):
        space = chunks * chunk * BW
        fixed = max(_most_pieces(1024, chunk, False, rng, space) for _ in range(300))
        grown = max(_most_pieces(1024, chunk, True, rng, space) for _ in range(3000))
        assert fixed == chunks  # every chunk of the space, read whole
        assert chunks < grown <= chunks + 1  # one chunk split in two, never more
    bound = testplan.load().reach_bounds["weight_reader"]["most_in_flight"]
    narrow = {"WGS_DEPTH": 32, "WMB_DEPTH": 32, "DATA_DEPTH": 160, "AXI_DATA_W": 1024, "AXI_ADDR_W": 12}
    assert contracts.evaluate(bound.bound, narrow) == 8 + 8 + 9
    assert contracts.evaluate(bound.bound, {**narrow, "AXI_ADDR_W": 13}) == 2 * (
        8 + 8 + 17
    )  # 16 chunks, two pages: 2 bursts a piece


def test_the_queue_bounds_cut_only_where_the_space_has_fewer_words():
    """The data and WMB queue bounds (configs.tops.weight_reader.reach_bounds) at the matrix's configurations:
    the depth wherever the space holds more bus words than the queue; at 12 address bits the space's words less
    the beats the expander's windows take (one of 1024-bit beats to a 64-bit output; two 256-bit ones to a
    256-bit output), as the bounds' reasons count them."""
    plan = testplan.load()
    bounds = plan.reach_bounds["weight_reader"]
    got = {}
    for name, cfg in plan.configs.items():
        if name.startswith("weight_reader@"):
            p = contracts.resolve("weight_reader", cfg.parameters)
            got[name] = (
                contracts.evaluate(bounds["data_queue"].bound, p),
                contracts.evaluate(bounds["wmb_queue"].bound, p),
                p["DATA_DEPTH"],
                p["WMB_DEPTH"],
            )
    cut = {n: (d, m) for n, (d, m, dd, md) in got.items() if (d, m) != (dd, md)}
    assert cut == {"weight_reader@narrow_addr_wide_bus": (31, 31), "weight_reader@axi_addr_w_min": (126, 32)}
    wide_out = {"DATA_DEPTH": 1024, "AXI_ADDR_W": 12, "AXI_DATA_W": 1024, "OUT_DATA_W": 1024}
    assert contracts.evaluate(bounds["data_queue"].bound, wide_out) == 31  # compressed: 32 - 2 words + one twice
    assert contracts.evaluate(bounds["data_queue"].bound, {**wide_out, "AXI_ADDR_W": 17}) == 1024


def test_min_and_max_in_a_plan_expression():
    assert contracts.evaluate("min(A, B + 1, 7)", {"A": 9, "B": 3}) == 4
    assert contracts.evaluate("max(0, 17 - A) * 2", {"A": 12}) == 10
    for bad in ("min(A)", "abs(A)", "min(A, b=1)"):
        try:
            contracts.evaluate(bad, {"A": 1})
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} evaluated")
