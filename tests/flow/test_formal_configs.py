"""``make formal CONFIG=<top>@<config>``: the property sets at a configuration of the matrix.

The rule under test (dlaverif/flow/formal.py ``config_proofs``, docs/configurations.md): a configuration's proof is each
of its top's property sets with the set's own reduced parameters, the configuration's parameters on top of them, and
a set parameter the configuration makes illegal moved into its contract (the set yields, the corner never does);
depth, induction and covers are the set's unless ``configs.<top>.formal_at`` says otherwise, with a reason.

Oracles: the parameter values below are written by hand from the sets' tables (dlaverif/flow/formal.py ``PROOFS``) and
the RTL contracts (ADDR_W 12 bounds LEN_W to 13; AXI_DATA_W 1024 needs MAX_ATOM_BYTES 128), never computed by the
code under test. Four runs use the solver: the cheapest corner (every set must pass, the o1 set by induction), the
formal mutant of the width bug (ADDR_W 12, DATA_W 1024: 256 beats cut to 0) at the corner that found it (it must
fail there), the one-in-flight long-burst set at 64-bit addresses (by induction: the 64-bit corners' unbounded proof)
and an end-address carry bug at that corner (it must fail there).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest

from dlaverif.flow import formal, runner, testplan


@pytest.fixture(scope="module")
def plan() -> testplan.Plan:
    return testplan.load()


def _by_set(plan: testplan.Plan, key: str) -> dict[str, formal.Proof]:
    return {p.name.split("@")[0]: p for p in formal.config_proofs(key, plan)}


def _with(plan: testplan.Plan, cfg: testplan.Configuration) -> testplan.Plan:
    """``plan`` with one more configuration (the matrix itself is data; these test the construction rule)."""
    return replace(plan, configs={**plan.configs, cfg.key: cfg})


def test_a_corner_takes_the_sets_reduced_parameters_not_the_rtl_defaults(plan):
    sets = _by_set(plan, "axi_rd_engine@narrow_addr_wide_bus")
    assert list(sets) == ["axi_rd_engine_b256", "axi_rd_engine"]
    # the corner's ADDR_W 12 and DATA_W 1024; the set's 2 reads in flight and 4-beat bursts (the RTL default is 128)
    assert sets["axi_rd_engine"].params == {
        "ADDR_W": 12,
        "DATA_W": 1024,
        "MAX_OUTSTANDING": 2,
        "MAX_BURST": 4,
        "LEN_W": 7,
    }
    # the b256 set's LEN_W 14 is illegal at ADDR_W 12 (LEN_W <= ADDR_W + 1): it yields to 13, the corner does not
    assert sets["axi_rd_engine_b256"].params == {
        "ADDR_W": 12,
        "DATA_W": 1024,
        "MAX_OUTSTANDING": 2,
        "MAX_BURST": 256,
        "LEN_W": 13,
    }
    # depth, induction and covers are the set's own (make formal's full depth)
    assert (sets["axi_rd_engine"].depth, sets["axi_rd_engine"].prove, sets["axi_rd_engine"].cover) == (11, 0, True)
    assert (sets["axi_rd_engine_b256"].depth, sets["axi_rd_engine_b256"].prove) == (9, 0)


def test_huge_corner_values_stay_at_the_corners_value(plan):
    wide = _by_set(plan, "axi_rd_engine@wide_all")["axi_rd_engine"].params
    assert wide == {"ADDR_W": 64, "DATA_W": 1024, "ID_W": 32, "MAX_OUTSTANDING": 255, "MAX_BURST": 256, "LEN_W": 65}
    deep = _by_set(plan, "weight_reader@deep_queues_most_in_flight")["weight_reader"].params
    assert deep["MAX_OUTSTANDING"] == 255 and deep["ENT_DEPTH"] == 4096 and deep["DATA_DEPTH"] == 1024
    assert deep["AXI_DATA_W"] == 64 and deep["AXI_ADDR_W"] == 16  # the set's, where the corner says nothing


def test_a_set_parameter_that_bounds_the_corners_yields(plan):
    # cube_reader's AXI_DATA_W is at most 8 * MAX_ATOM_BYTES: the set's 8-byte atoms move to 128 for a 1024-bit bus
    p = _by_set(plan, "cube_reader@axi_data_w_max")["cube_reader"].params
    assert (p["AXI_DATA_W"], p["MAX_ATOM_BYTES"], p["MAX_OUTSTANDING"], p["AXI_ADDR_W"]) == (1024, 128, 2, 16)
    # LEN_W 60 needs ADDR_W >= 59: the set's ADDR_W 13 moves to 59, the nearest legal value
    cfg = testplan.Configuration("axi_rd_engine", "long", {"LEN_W": 60}, "corner", "r", formal=("axi_rd_engine",))
    (q,) = formal.config_proofs(cfg.key, _with(plan, cfg))
    assert (q.params["LEN_W"], q.params["ADDR_W"], q.params["DATA_W"]) == (60, 59, 64)


def test_a_configuration_parameter_overrides_the_sets_value(plan):
    cfg = testplan.Configuration(
        "axi_rd_engine", "probe", {"MAX_OUTSTANDING": 7, "MAX_BURST": 16}, "corner", "r", formal=("axi_rd_engine",)
    )
    (p,) = formal.config_proofs(cfg.key, _with(plan, cfg))
    assert p.name == "axi_rd_engine@probe"
    assert p.params == {"ADDR_W": 13, "DATA_W": 64, "MAX_OUTSTANDING": 7, "MAX_BURST": 16, "LEN_W": 7}


def test_formal_at_names_other_sets_and_a_depth_with_its_reason(plan):
    sets = _by_set(plan, "axi_rd_engine@max_outstanding_min")
    assert list(sets) == ["axi_rd_engine_b256", "axi_rd_engine_o1"]
    assert sets["axi_rd_engine_o1"].prove == 3 and sets["axi_rd_engine_o1"].params["MAX_OUTSTANDING"] == 1
    cfg = testplan.Configuration(
        "axi_rd_engine",
        "shallow",
        {"DATA_W": 1024},
        "corner",
        "r",
        formal=("axi_rd_engine",),
        formal_depth={"axi_rd_engine": 5},
        formal_why="a test's reason",
    )
    (p,) = formal.config_proofs(cfg.key, _with(plan, cfg))
    assert p.depth == 5 and "(depth 5: a test's reason)" in p.what


@pytest.mark.parametrize("corner", ["axi_data_w_max", "narrow_addr_wide_bus"])
def test_the_weight_readers_1024_bit_corners_leave_only_the_ram_invariant_out(plan, corner):
    (p,) = formal.config_proofs(f"weight_reader@{corner}", plan)
    own = plan.formal["weight_reader"]
    assert p.params["AXI_DATA_W"] == 1024 and p.depth == own.depth
    assert p.unchecked == (*own.unchecked, "sdp_ram_props") and "sdp_ram_props unchecked: a 1024-bit bus" in p.what
    (narrow,) = formal.config_proofs("weight_reader@axi_data_w_min", plan)
    assert "sdp_ram_props" not in narrow.unchecked


def test_an_unchecked_module_must_be_a_property_module(plan):
    cfg = testplan.Configuration(
        "weight_reader",
        "x",
        {},
        "corner",
        "r",
        formal=("weight_reader",),
        formal_unchecked=("no_such_props",),
        formal_why="w",
    )
    with pytest.raises(formal.ConfigError, match="no property module 'no_such_props' among the set weight_reader"):
        formal.config_proofs(cfg.key, _with(plan, cfg))


@pytest.mark.sim
def test_list_with_a_configuration_lists_its_sets_and_runs_nothing():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlaverif.flow.formal",
            "--list",
            "--config",
            "weight_reader@axi_data_w_max,axi_rd_engine@addr_w_max",
        ],
        cwd=runner.ROOT,
        env={**os.environ, "PYTHONPATH": str(runner.ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    rows = [ln.split()[0] for ln in done.stdout.splitlines()]
    assert done.returncode == 0 and rows == [
        "weight_reader@axi_data_w_max",
        "axi_rd_engine_o1_b256@addr_w_max",
        "axi_rd_engine_b256@addr_w_max",
        "axi_rd_engine@addr_w_max",
    ], done.stdout + done.stderr
    assert "PASS" not in done.stdout and "formal configurations" not in done.stdout


@pytest.mark.parametrize(
    "cfg,said",
    [
        (("axi_rd_engine", "x", {}, "corner", "r"), "names no property set"),
        (("axi_rd_engine", "x", {}, "corner", "r", ("no_such_set",)), "names 'no_such_set': no such set"),
        (("axi_rd_engine", "x", {}, "corner", "r", ("cube_reader",)), "its top is cube_reader"),
        (("axi_rd_engine", "x", {"LEN_W": 70}, "corner", "r", ("axi_rd_engine",)), "parameter LEN_W = 70 is outside"),
    ],
)
def test_a_configuration_the_flow_cannot_run_is_refused(plan, cfg, said):
    c = testplan.Configuration(*cfg)
    with pytest.raises(formal.ConfigError, match=said):
        formal.config_proofs(c.key, _with(plan, c))


@pytest.mark.parametrize(
    "spec,said",
    [
        ({"formal": "s", "formal_at": {"nosuch": {"depth": {"s": 3}, "why": "w"}}}, "no configuration 'nosuch'"),
        ({"formal": "s", "formal_at": {"a": {"depth": {"s": 3}}}}, "why is required"),
        (
            {"formal": "s", "formal_at": {"a": {"sets": ["t"], "why": "w", "k": 1}}},
            "only sets, depth, unchecked and why",
        ),
    ],
)
def test_the_plans_formal_at_is_checked(spec, said):
    with pytest.raises(ValueError, match=said):
        testplan._formal("top", spec, {"a"})


@pytest.mark.sim
def test_an_unknown_configuration_is_one_line_and_exit_2():
    done = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.formal", "--config", "axi_rd_engine@nosuch"],
        cwd=runner.ROOT,
        env={**os.environ, "PYTHONPATH": str(runner.ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("make formal: no configuration 'axi_rd_engine@nosuch'") and "narrow_all" in lines[0]
    assert done.stdout == ""


@pytest.mark.sim
def test_the_cheapest_corner_concludes(capsys):
    # one burst in flight, one-beat bursts, 1-byte commands, 12-bit addresses: the o1 set by 3-induction
    assert formal.run_configs(["axi_rd_engine@narrow_all"], None, timeout=600.0) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {ln.split()[0]: ln.split() for ln in out if "@narrow_all" in ln}
    assert set(rows) == {"axi_rd_engine_b256@narrow_all", "axi_rd_engine_o1@narrow_all"}, out
    assert all(r[1] == "PASS" for r in rows.values()), out
    assert rows["axi_rd_engine_o1@narrow_all"][4:7] == ["bmc+ind", "k", "3"], out


@pytest.mark.sim
@pytest.mark.parametrize(
    "name,corner,killer",
    [
        # the width bug, at the corner that found it
        ("beats_w_command_only", "axi_rd_engine@narrow_addr_wide_bus", "axi_rd_engine_b256"),
        # an end-address carry into bit 63 lost, at 64-bit addresses (the one-in-flight set's command crosses 2**63)
        ("end_addr_top_bit_dropped", "axi_rd_engine@addr_w_max", "axi_rd_engine_o1_b256"),
    ],
)
def test_a_corner_mutant_fails_at_its_corner(capsys, name, corner, killer):
    bug = formal.all_mutants()[name]
    assert formal.killers()[name] == [(killer, corner)]  # the plan's kills: that set, at that corner
    assert formal.run_configs([corner], None, timeout=900.0, mutant=bug) == 0
    out = capsys.readouterr().out
    assert f"{killer}@{corner.split('@')[1]}-{name} FAIL" in " ".join(out.split()), out
    assert f"mutant {name} killed at 1/1" in out, out


@pytest.mark.sim
def test_a_64_bit_corner_proves_the_address_arithmetic_by_induction(plan):
    # the 2-in-flight sets' BMC does not reach its depth at 64-bit addresses: the corner adds the one-in-flight
    # long-burst set, whose LEN_W is the RTL's own (ADDR_W + 1 = 65, commands across bit 63), proved by 3-induction
    sets = _by_set(plan, "axi_rd_engine@addr_w_max")
    assert list(sets) == ["axi_rd_engine_o1_b256", "axi_rd_engine_b256", "axi_rd_engine"]
    o1 = sets["axi_rd_engine_o1_b256"]
    assert o1.params == {"ADDR_W": 64, "DATA_W": 64, "MAX_OUTSTANDING": 1, "MAX_BURST": 256}
    assert (o1.prove, o1.depth) == (3, 6)
    assert (sets["axi_rd_engine_b256"].depth, sets["axi_rd_engine"].depth) == (7, 7)
    assert "(depth 7: 64-bit addresses" in sets["axi_rd_engine"].what
    # the same parameters at the other 64-bit corner on a 64-bit bus: the same proof
    same = _by_set(plan, "axi_rd_engine@wide_addr_narrow_bus")
    assert {n: (p.params, p.depth) for n, p in same.items()} == {n: (p.params, p.depth) for n, p in sets.items()}
    r = formal.run_proof(o1, o1.depth, timeout=600.0)
    assert (r.status, r.mode, r.k) == ("PASS", "bmc+ind", 3), formal.line(r)
