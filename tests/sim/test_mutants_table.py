"""Every mutant of `make mutants` still applies to the current RTL (an RTL edit must not silently turn a mutant
into a no-op). No simulator needed; `make mutants` runs them."""

from tb.flow import mutants


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


def test_a_third_party_mutant_edits_a_copy_of_its_tree(tmp_path):
    """A mutant of NVIDIA's RTL (root NVDLA_HW) is applied to a copy of that checkout; the checkout is untouched."""
    from tb import thirdparty

    m = next(m for m in mutants.MUTANTS if m.name == "pdp_surf_end_dropped")
    src = mutants.tree(m)
    if src is None:  # neither NVDLA_HW nor the shared copy: the mutant cannot apply anywhere (its run is N/A too)
        assert thirdparty.NVDLA_HW not in thirdparty.environment()
        return
    copy = mutants.make_tree_copy(m, tmp_path)
    (edit,) = m.edits
    assert copy == tmp_path / "NVDLA_HW"
    assert edit.new in (copy / edit.file).read_text() and edit.old not in (copy / edit.file).read_text()
    assert edit.old in (src / edit.file).read_text()
    assert [e.run.name for e in mutants.runs_for(m)] == ["pdp_rdma/random"]
