"""Corner mutants (a catalogue's ``configs:``) and ``make mutants CONFIG=``, without a simulator: where each corner
mutant runs, the configurations checked against the matrix, the refusals."""

from __future__ import annotations

import textwrap

import pytest

from dlaverif.flow import mutants, testplan
from dlaverif.flow.mutation import load_catalogue
from dlaverif.flow.planschema import PlanError, Refusal, exit_status

CORNERS = {  # name -> the configuration where the matrix catches it (blocks/<block>/mutants.yaml, first entry)
    "cr_base_cut_to_40_bits": "cube_reader@axi_addr_w_max",
    "pr_base_cut_to_40_bits": "pixel_reader@axi_addr_w_max",
    "eng_burst_table_pow2_wrap": "axi_rd_engine@max_outstanding_max",
    "eng_in_flight_cap_128": "axi_rd_engine@max_outstanding_max",
    "wr_reservation_counter_8_bits": "weight_reader@data_depth_max",
    "wr_queue_one_short": "weight_reader@small_queues_narrow_bus",
}


def test_corner_mutants_run_at_their_configurations_only():
    plan = testplan.load()
    by_name = {m.name: m for m in mutants.catalogue()}
    for name, first in CORNERS.items():
        m = by_name[name]
        assert m.configs[0] == first and all(c in plan.configs for c in m.configs)
        runs = [e.run.name for e in mutants.runs_for(m)]
        assert runs == [plan.configs[c].run for c in m.configs], (name, runs)
        assert all(e.env["PLAN_SUITE"] == testplan.CONFIG_SUITE for e in mutants.runs_for(m))
    plain = by_name["burst_crosses_4kb"]  # a mutant of the defaults: the mutants suite's runs of its files
    assert not plain.configs
    assert {e.run.name for e in mutants.runs_for(plain)} <= {e.run.name for e in mutants.suite_runs()}


def test_config_chosen_on_the_command_line():
    m = next(m for m in mutants.catalogue() if m.name == "burst_crosses_4kb")
    runs = mutants.runs_for(m, ("axi_rd_engine@wide_all",))
    assert [e.run.name for e in runs] == ["axi_rd_engine/config@wide_all"]
    assert [e.run.name for e in mutants.runs_for(None, ("cube_reader@axi_addr_w_max",))] == [
        "cube_reader/config@axi_addr_w_max"
    ]
    # the engine's mutant at a cube-reader configuration: its build compiles the engine too
    assert [e.run.name for e in mutants.runs_for(m, ("cube_reader@axi_addr_w_max",))] == [
        "cube_reader/config@axi_addr_w_max"
    ]
    with pytest.raises(Refusal, match="CONFIG=nope@x: not a configuration of the matrix"):
        mutants.runs_for(m, ("nope@x",))


def test_make_mutants_refuses_an_unknown_configuration_in_one_line(capsys):
    status = exit_status("make mutants", lambda: mutants.main(["--config", "cube_reader@nowhere", "--list"]))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("make mutants: CONFIG=cube_reader@nowhere: not a configuration")


def test_catalogue_configs_must_name_a_configuration(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            mutants:
              - {name: a, family: f, bug: b, file: x.sv, old: o, new: n, configs: [cube_reader]}
            """
        )
    )
    with pytest.raises(PlanError, match="configs"):
        load_catalogue(path)
    path.write_text("mutants:\n  - {name: a, family: f, bug: b, file: x.sv, old: o, new: n, configs: [t@c]}\n")
    assert load_catalogue(path)[0].configs == ("t@c",)


def test_the_baseline_runs_where_the_chosen_mutants_run():
    by_name = {m.name: m for m in mutants.catalogue()}
    corner, plain = by_name["eng_in_flight_cap_128"], by_name["burst_crosses_4kb"]
    names = lambda runs: [e.run.name for e in runs]  # noqa: E731
    assert names(mutants.baseline_runs([corner])) == [
        "axi_rd_engine/config@max_outstanding_max",
        "axi_rd_engine/config@most_in_flight_wide_bus",
        "axi_rd_engine/config@wide_all",
    ]
    both = names(mutants.baseline_runs([plain, corner]))
    suite = names(mutants.runs_for(None))
    assert both[: len(suite)] == suite  # the mutants suite first (its runnable builds)
    assert both[-1] == "axi_rd_engine/config@wide_all" and len(both) == len(set(both))
    assert names(mutants.baseline_runs([plain, corner], ("pixel_reader@axi_addr_w_max",))) == [
        "pixel_reader/config@axi_addr_w_max"
    ]
