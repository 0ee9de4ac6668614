"""Every mutant of `make mutants` still applies to the current RTL (an RTL edit must not silently turn a mutant
into a no-op). No simulator needed; `make mutants` runs them."""

from dlaverif.flow import mutants


def test_every_mutant_applies_exactly_once():
    mutants.check_table()
    assert len(mutants.MUTANTS) >= 6
    families = {m.name for m in mutants.MUTANTS}
    for needed in (
        "line_count_off_by_one",
        "surface_stride_wrong",
        "tlast_dropped",
        "tready_ignored_one_cycle",
        "burst_crosses_4kb",
        "val_align_base_skipped",
    ):
        assert needed in families, needed


def test_markdown_table_from_the_reports(tmp_path, monkeypatch):
    """The datasheets' mutant tables come from the reports: status, failing tests (three, then a count) and the
    first property named in the failure messages, per simulator that has a report."""
    import json

    monkeypatch.setattr(mutants, "out_dir", lambda sim: tmp_path / sim)
    (tmp_path / "verilator").mkdir()
    failed = ["n444_line_buffer", "throughput/lat=0", "throughput/lat=32", "RegisterTest", "EveryFormatTest"]
    msg = "3 assertion failure(s); first: ASSERT 'no transfer after TLAST until the job's DONE' failed at 765 ns in x"
    report = {
        "mutants": [
            {
                "name": "pr_tlast_every_line",
                "status": "KILLED",
                "note": "",
                "suites": {
                    "pixel_reader/directed": {"tests": 3, "failed": failed[:3], "messages": [msg]},
                    "pixel_reader/uvm": {"tests": 13, "failed": failed[3:], "messages": ["pixel #8: TLAST=1"]},
                },
            },
            {"name": "pr_mean_ignored", "status": "SURVIVED", "note": "", "suites": {}},
        ]
    }
    (tmp_path / "verilator" / "report.json").write_text(json.dumps(report))
    rows = mutants.markdown_table("pr_", ("verilator", "icarus")).splitlines()
    assert rows[0] == "| mutant | what it breaks (file) | Verilator: failing tests | property |"
    by_name = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[3:5]] for r in rows[2:]}
    assert by_name["`pr_tlast_every_line`"] == [
        "n444_line_buffer, throughput, RegisterTest (+1)",
        "'no transfer after TLAST until the job's DONE'",
    ]
    assert by_name["`pr_mean_ignored`"] == ["**SURVIVED**", ""]
    assert by_name["`pr_fp16_ties_round_up`"] == ["not run", ""]  # in the catalogue, not in this report


def test_a_third_party_mutant_edits_a_copy_of_its_tree(tmp_path, nvdla_hw):
    """A mutant of NVIDIA's RTL (root NVDLA_HW) is applied to a copy of that checkout; the checkout is untouched."""
    m = next(m for m in mutants.MUTANTS if m.name == "pdp_surf_end_dropped")
    src = mutants.tree(m)
    assert src == nvdla_hw
    copy = mutants.make_tree_copy(m, tmp_path)
    (edit,) = m.edits
    assert copy == tmp_path / "NVDLA_HW"
    assert edit.new in (copy / edit.file).read_text() and edit.old not in (copy / edit.file).read_text()
    assert edit.old in (src / edit.file).read_text()
    assert [e.run.name for e in mutants.runs_for(m)] == ["pdp_rdma/random"]


def test_a_cdma_mutant_edits_a_copy_of_the_tree_that_holds_its_files(tmp_path, nvdla_hw):
    """With NVDLA_HW at a default, a mutant's tree is the default that holds its files (each shared export holds
    one block's: dlaverif.thirdparty.located); the copy is mutated, the tree is not."""
    import pytest

    from dlaverif import thirdparty

    m = next(m for m in mutants.MUTANTS if m.name == "cdma_dc_wrap_one_entry_late")
    src = mutants.tree(m)
    if src is None:
        pytest.skip(thirdparty.skipped(m.name, f"{nvdla_hw} holds no {sorted(m.files)[0]}"))
    (edit,) = m.edits
    assert (src / edit.file).is_file() and edit.old in (src / edit.file).read_text()
    copy = mutants.make_tree_copy(m, tmp_path)
    assert edit.new in (copy / edit.file).read_text() and edit.old in (src / edit.file).read_text()
    assert [e.run.name for e in mutants.runs_for(m)] == [
        "nvdla_cdma/directed",
        "nvdla_cdma/random",
        "nvdla_cdma/weights",
        "nvdla_cdma/weights-random",
    ]


def _fake_flow(monkeypatch, tmp_path, failing_run: str) -> list[str]:
    """Replace the build and the simulator of ``run_one`` (no simulator needed): every run passes its one test
    except ``failing_run``; returns the list the runs are appended to as they are simulated."""
    from types import SimpleNamespace

    from dlaverif.flow import runner

    ran: list[str] = []
    runs = [
        SimpleNamespace(
            run=SimpleNamespace(name=n, module="m", tests=(), build=SimpleNamespace(name="b")),
            environment=lambda count: {},
        )
        for n in ("blk/a", "blk/b", "blk/c")
    ]
    monkeypatch.setattr(mutants, "out_dir", lambda sim: tmp_path / sim)
    monkeypatch.setattr(mutants, "runs_for", lambda m, config=(): runs)
    monkeypatch.setattr(mutants, "make_copy", lambda m, dest: dest)
    monkeypatch.setattr(mutants.simflow, "build_run", lambda *a, **k: SimpleNamespace(build_dir=tmp_path / "bd"))

    def fake_run(build, module, seed, tests, env, tag):
        ran.append(tag)
        xml = tmp_path / f"{tag}.xml"
        xml.write_text("<testsuites/>")
        return xml

    def fake_results(xml):
        bad = xml.stem == failing_run.replace("/", "-")
        return [runner.Result("t", not bad, 1.0, 0.1, "mismatch" if bad else "")]

    monkeypatch.setattr(mutants.runner, "run", fake_run)
    monkeypatch.setattr(mutants.runner, "read_results", fake_results)
    (tmp_path / "verilator" / mutants.MUTANTS[0].name).mkdir(parents=True)
    (tmp_path / "verilator" / "baseline").mkdir(parents=True)
    return ran


def test_a_mutant_stops_at_its_first_killing_run(tmp_path, monkeypatch):
    """Default: the runs after the first one with a failing test are not simulated and are named in the report."""
    ran = _fake_flow(monkeypatch, tmp_path, failing_run="blk/b")
    m = mutants.MUTANTS[0]  # of our RTL (test_the_first_mutant_is_of_our_rtl)
    o = mutants.run_one(m.name, "verilator", 1, 1, keep_builds=True)
    assert ran == ["blk-a", "blk-b"]
    assert o.status == "KILLED" and o.killed_by == ["blk/b:t"]
    assert o.runs_skipped == ["blk/c"]


def test_all_runs_and_the_baseline_run_everything(tmp_path, monkeypatch):
    ran = _fake_flow(monkeypatch, tmp_path, failing_run="blk/a")
    m = mutants.MUTANTS[0]
    o = mutants.run_one(m.name, "verilator", 1, 1, keep_builds=True, all_runs=True)
    assert ran == ["blk-a", "blk-b", "blk-c"] and o.runs_skipped == [] and o.status == "KILLED"
    ran.clear()
    b = mutants.run_one("baseline", "verilator", 1, 1, keep_builds=True)
    assert ran == ["blk-a", "blk-b", "blk-c"] and b.status == "FAIL"  # the baseline never stops early


def test_the_first_mutant_is_of_our_rtl():
    assert mutants.MUTANTS[0].root == mutants.RTL_ROOT
