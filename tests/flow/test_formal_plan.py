"""make formal's property sets as plan data (``formal:``, dlaverif/flow/formalplan.py; docs/formal.md, "Declaring a
property set"), and a user's top proved from its own plan (examples/desc_reader).

Oracles: the sets' names, parameters and depths below are written by hand from the hand-written table docs/formal.md
had before the sets became data (the killers from its mutant table) and from the example's binding file
(rtl/desc_reader_props.sv), never read back from the code under test; each refusal's line
number is found in the edited text. The solver runs (marked ``sim``) prove the example's reader from a copy of the
example, as its user runs it (``make formal``, and ``TESTPLAN=`` with the flow's module), and show the proof can
fail: a bug that lets a burst cross a 4 KB page, and a binding that misdeclares the master.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dlaverif.flow import buildopts, formal, formalplan, mutants, project, testplan
from dlaverif.flow.planschema import PlanError, Refusal
from tests import plancopy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "desc_reader"
PLAN = plancopy.flat_text("formal")


def test_the_plan_declares_the_fourteen_sets_in_their_run_order():
    # the top plan's set (what the blocks share), then each block's plan's sets in import order
    plan = testplan.load()
    assert list(plan.formal) == [
        "atom_fifo",
        "axi_rd_engine",
        "axi_rd_engine_o1",
        "axi_rd_engine_b256",
        "axi_rd_engine_o1_b256",
        "weight_job",
        "weight_reader",
        "cube_job",
        "cube_reader",
        "pixel_job",
        "pixel_reader",
        "axil_regs",
        "byte_dma",
        "pin_dma",
    ]
    sets = plan.formal
    # docs/formal.md's table: top, parameters, depth (quick), mode
    cube = sets["cube_job"]
    assert (cube.top, cube.depth, cube.quick_depth, cube.prove, cube.cover) == ("cube_reader", 16, 12, 0, True)
    assert cube.params == {"AXI_ADDR_W": 12, "AXI_ID_W": 4, "MAX_OUTSTANDING": 2, "AXI_DATA_W": 64, "MAX_ATOM_BYTES": 8}
    assert cube.cut == ("*reader_shell/u_regs",) and cube.unchecked == ("axil_slave_props",)
    assert "cube_reader set" in cube.waivers["axil_slave_props"]
    o1 = sets["axi_rd_engine_o1"]
    assert (o1.top, o1.prove, o1.depth, o1.quick_depth) == ("axi_rd_engine", 3, 11, 9)
    assert o1.design == ("param_contract.sv", "sdp_ram.sv", "axi_rd_engine.sv")
    regs = sets["axil_regs"]
    assert (regs.top, regs.prove, regs.depth, regs.quick_depth) == ("formal_axil_regs", 2, 16, 10)
    assert [p.name for p in regs.properties] == ["props.f", "formal_axil_regs.sv"]
    assert (sets["pixel_job"].depth, sets["pixel_job"].quick_depth) == (13, 10)
    readers = {n: p for n, p in sets.items() if n not in ("byte_dma", "pin_dma")}
    assert all(p.bind is None and p.build is None for p in readers.values())  # our readers bind their own properties
    # the self-test DMAs (blocks/selftest_dma/plan.yaml): their builds, bound as their simulations bind them
    for name, prefix_clock in (("byte_dma", "aclk"), ("pin_dma", "clk_i")):
        dma = sets[name]
        assert (dma.build, dma.top, dma.depth, dma.quick_depth, dma.cover) == (name, name, 14, 10, True)
        assert dma.bind is not None and (dma.bind.prefix, dma.bind.clock) == ("rd_", prefix_clock)
        assert (dma.bind.params["ALIGNED"], dma.bind.params["MAX_OUTSTANDING"], dma.bind.params["TRACK"]) == (
            "1'b0",
            "0",
            "16",
        )


def test_no_set_is_written_in_the_flow():
    """The sets live in the plan only: the driver names none of our blocks' sets or files."""
    source = Path(formal.__file__).read_text()
    assert "PROOFS" not in source and "ENG =" not in source
    for name in ("axi_rd_engine_o1_b256", "cube_job", "weight_job", "pixel_job", "*reader_shell/u_regs"):
        assert name not in source, name


def test_a_binding_file_is_read_as_the_simulations_read_it():
    b = formalplan.binding_file(EXAMPLE / "rtl" / "desc_reader_props.sv")
    assert (b.top, b.prefix, b.clock, b.reset, b.reset_active) == ("desc_reader", "mem_", "clk_i", "rst_ni", 0)
    assert b.params == {"ADDR_W": "36", "DATA_W": "64", "MAX_OUTSTANDING": "1", "MAX_BURST": "4"}


def _example_plan(monkeypatch) -> testplan.Plan:
    """The example's plan with its folder as the project's root, as ``TESTPLAN=`` makes dlaverif.flow.project say
    in the example's own process."""
    monkeypatch.setenv("DESC_READER_RTL", str(EXAMPLE / "rtl"))
    monkeypatch.setattr(project, "ROOT", EXAMPLE)
    monkeypatch.setattr(buildopts, "ROOT", EXAMPLE)
    return testplan.load(EXAMPLE / "testplan.yaml")


def test_the_example_plan_declares_its_reader_set(monkeypatch):
    (p,) = _example_plan(monkeypatch).formal.values()
    assert (p.name, p.top, p.build, p.depth, p.quick_depth, p.cover, p.prove) == (
        "desc_reader",
        "desc_reader",
        "desc_reader",
        12,
        10,
        True,
        0,
    )
    assert p.filelist == EXAMPLE / "rtl" / "desc_reader.f" and p.params == {}  # the build's: the RTL defaults
    assert p.bind is not None and p.bind.prefix == "mem_"
    assert p.bind.source == str(EXAMPLE / "rtl" / "desc_reader_props.sv")
    assert p.model_top == "dla_formal_desc_reader"


def _project(tmp_path: Path) -> Path:
    """A copy of the example, outside the checkout (its sim_build/ left behind)."""
    return shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))


def _env(project_dir: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "DESC_READER_RTL": str(project_dir / "rtl")}


def _row(out: str, name: str) -> list[str]:
    rows = [ln.split() for ln in out.splitlines() if ln.split()[:1] == [name]]
    assert len(rows) == 1, out
    return rows[0]


@pytest.mark.sim
def test_make_formal_proves_the_read_master_set_on_the_users_reader(tmp_path):
    mine = _project(tmp_path)
    done = subprocess.run(
        ["make", "--no-print-directory", "formal", f"PYTHON={sys.executable}"],
        cwd=mine,
        env=_env(mine),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    row = _row(done.stdout, "desc_reader")
    # full depth, and both covers of the property set reached: a burst's last beat and an error beat (not vacuous)
    assert row[1:5] == ["PASS", "depth", "12", "bmc+cover"] and "2 covers reached" in " ".join(row), done.stdout
    assert "formal: 1/1 property sets pass (full depths" in done.stdout
    assert (mine / "sim_build" / "formal" / "desc_reader" / "formal_top.sv").is_file()  # its output, in its project


@pytest.mark.sim
def test_the_documented_testplan_way_runs_the_quick_depth(tmp_path):
    mine = _project(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.formal", "--quick"],
        cwd=mine,
        env={**_env(mine), "TESTPLAN": "testplan.yaml"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert _row(done.stdout, "desc_reader")[1:5] == ["PASS", "depth", "10", "bmc"], done.stdout


#: a burst no longer cut at its MAX_BEATS block: from a word near the end of a page it runs into the next
PAGE_BUG = (": to_block;", ": (MB+1)'(MAX_BEATS);")
#: the binding as a map in the plan (not the file), declaring 2-beat bursts where the reader's have up to 4 beats
MISDECLARED = (
    "bind: rtl/desc_reader_props.sv",
    "bind: {prefix: mem_, clock: clk_i, reset: rst_ni, reset_active: 0,\n"
    "                       parameters: {ADDR_W: 36, DATA_W: 64, MAX_OUTSTANDING: 1, MAX_BURST: 2}}",
)


@pytest.mark.sim
@pytest.mark.parametrize(
    "rtl_edit, plan_edit, broken",
    [(PAGE_BUG, None, "'burst inside one 4 KB page'"), (None, MISDECLARED, "'ARLEN + 1 <= MAX_BURST'")],
    ids=["a burst across 4 KB", "a misdeclared burst length"],
)
def test_the_users_set_fails_on_a_bug_or_a_wrong_declaration(tmp_path, rtl_edit, plan_edit, broken):
    mine = _project(tmp_path)
    for path, edit in ((mine / "rtl" / "desc_reader.sv", rtl_edit), (mine / "testplan.yaml", plan_edit)):
        if edit is not None:
            text = path.read_text()
            assert text.count(edit[0]) == 1, edit[0]
            path.write_text(text.replace(*edit))
    done = subprocess.run(
        ["make", "--no-print-directory", "formal", "QUICK=1", f"PYTHON={sys.executable}"],
        cwd=mine,
        env=_env(mine),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode != 0, done.stdout
    row = " ".join(_row(done.stdout, "desc_reader"))
    assert row.startswith("desc_reader FAIL") and broken in row, done.stdout
    assert (mine / "sim_build" / "formal" / "desc_reader" / "trace.vcd").is_file()


def _edited(old: str, new: str) -> str:
    assert PLAN.count(old) == 1, old
    return PLAN.replace(old, new)


DR_BIND = "examples/desc_reader/rtl/desc_reader_props.sv"
CUBE = "  cube_reader:\n    top: cube_reader\n    parameters: {AXI_ADDR_W: 16"
BUILDS = len(plancopy.merged()["builds"])  # the names a refusal of an unknown build lists
REFUSED = [
    (
        "an unknown key",
        _edited("    quick_depth: 12 ", "    quick_dpth: 12 "),
        "quick_dpth",
        "formal.cube_job.quick_dpth: unknown key; allowed: top, build, design, parameters, properties, bind, "
        "bind_parameters, inputs, assume, depth, quick_depth, induction, cover, cut, unchecked, mutants_of, kills, "
        "what (did you mean 'quick_depth'?)",
    ),
    (
        "a missing depth",
        _edited("    depth: 13 ", "    # depth: 13 "),
        "    top: pixel_reader",  # a missing key: at the entry's first line
        "formal.pixel_job: missing key depth (required: depth, quick_depth, what)",
    ),
    (
        "no design",
        _edited(CUBE, "  cube_reader:\n    parameters: {AXI_ADDR_W: 16"),
        "{AXI_ADDR_W: 16, AXI_ID_W: 4, MAX_OUTSTANDING: 2, AXI_DATA_W: 64, MAX_ATOM_BYTES: 8}",
        "formal.cube_reader: needs one of the keys top, build",
    ),
    (
        "an induction that is not a number",
        _edited("    induction: 2\n    what: AXI4-Lite", "    induction: yes\n    what: AXI4-Lite"),
        "induction: yes",
        "formal.axil_regs.induction: expected a whole number, not 'yes'",
    ),
    (
        "an unknown build",
        _edited(CUBE, "  cube_reader:\n    build: cube_readr\n    parameters: {AXI_ADDR_W: 16"),
        "build: cube_readr",
        f"formal.cube_reader.build: unknown build 'cube_readr'; allowed: one of the {BUILDS} names under builds: "
        "(did you mean 'cube_reader'?)",
    ),
    (
        "a bind map without its reset level",
        _edited(CUBE, CUBE.replace("    parameters", "    bind: {prefix: m_, clock: clk, reset: rst}\n    parameters")),
        "bind: {prefix",
        "formal.cube_reader.bind: missing key reset_active (required: prefix, clock, reset, reset_active)",
    ),
    (
        "a quick depth above the depth",
        _edited("    quick_depth: 12 ", "    quick_depth: 17 "),
        "  cube_job:",
        "formal.cube_job: quick_depth 17 must be 1..depth (16)",
    ),
    (
        "an induction deeper than the BMC",
        _edited("    induction: 2\n    what: AXI4-Lite", "    induction: 17\n    what: AXI4-Lite"),
        "  axil_regs:",
        "formal.axil_regs.induction: 17 must be 0 (BMC only) up to the depth 16 (the base case)",
    ),
    (
        "top and build",
        _edited(CUBE, CUBE.replace("    parameters", "    build: cube_reader\n    parameters")),
        "  cube_reader:\n",
        "formal.cube_reader: top or build, not both (a build names its top)",
    ),
    (
        "a property file that does not exist",
        _edited(
            "    properties: [blocks/rtl/props/props.f, blocks/rtl/props/formal_atom_fifo.sv]",
            "    properties: [blocks/rtl/props/props.f, blocks/rtl/props/formal_atom_fif.sv]",
        ),
        "  atom_fifo:",
        f"formal.atom_fifo.properties: {ROOT / 'blocks/rtl/props/formal_atom_fif.sv'} does not exist",
    ),
    (
        "a module left unchecked without a reason",
        re.sub(r"(?m)^(      axil_slave_props: ).*cube_reader set$", r"\1''", PLAN, count=1),
        "  cube_job:",
        "formal.cube_job.unchecked: every module left unchecked needs its reason",
    ),
    (
        "bind_parameters without a bind",
        _edited(CUBE, CUBE.replace("    parameters", "    bind_parameters: {TRACK: 8}\n    parameters")),
        "  cube_reader:\n",
        "formal.cube_reader.bind_parameters: only a set with bind has a generated top to apply it to",
    ),
    (
        "ids that are not a bool",
        _edited(
            CUBE,
            CUBE.replace(
                "    parameters", "    bind: {prefix: m_, clock: c, reset: r, reset_active: 0, ids: 4}\n    parameters"
            ),
        ),
        "bind: {prefix",
        "formal.cube_reader.bind.ids: expected true or false, not '4'",
    ),
    (
        "a binding file of another top",
        _edited(CUBE, CUBE.replace("    parameters", f"    bind: {DR_BIND}\n    parameters")),
        "  cube_reader:\n",
        "formal.cube_reader.bind: examples/desc_reader/rtl/desc_reader_props.sv binds desc_reader, not the set's top "
        "cube_reader",
    ),
]


@pytest.mark.parametrize("what, text, marker, message", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_wrong_formal_entry_is_one_line_at_its_line(tmp_path, what, text, marker, message):
    plan = tmp_path / "plan.yaml"
    plan.write_text(text)
    with pytest.raises(PlanError) as exc:
        testplan.load(plan)
    lines = text.splitlines()
    start = lines.index("formal:")  # the marker's first line in the formal section
    at = next(i for i, t in enumerate(lines, 1) if i > start and marker.splitlines()[0] in t)
    assert str(exc.value) == f"{plan}:{at}: {message}"


def test_make_formal_mutants_runs_each_mutant_against_the_set_the_plan_says_kills_it():
    # docs/formal.md's mutant table: the set that kills each protocol and contract mutant (and where)
    expected = {
        **dict.fromkeys(
            [
                "burst_crosses_4kb",
                "burst_4kb_one_beat_over",
                "outstanding_limit_off_by_one",
                "burst_fifo_wraps_early",
                "outstanding_count_misses_overlap",
                "arvalid_dropped",
                "ar_issued_under_stop",
            ],
            [("axi_rd_engine", None)],
        ),
        "beats_w_command_only": [("axi_rd_engine_b256", "axi_rd_engine@narrow_addr_wide_bus")],
        "end_addr_top_bit_dropped": [("axi_rd_engine_o1_b256", "axi_rd_engine@addr_w_max")],
        "tlast_dropped": [("atom_fifo", None)],
        "tready_ignored_one_cycle": [("atom_fifo", None)],
        **dict.fromkeys(
            [
                "tlast_every_batch",
                "output_fifo_overflow",
                "bus_error_not_stopping",
                "start_taken_while_busy",
                "illegal_descriptor_reads",
                "done_survives_reset",
            ],
            [("cube_job", None)],
        ),
        "wr_tlast_one_beat_early": [("weight_job", None)],
        "pr_tlast_every_line": [("pixel_job", None)],
    }
    assert formal.killers() == expected
    catalogue = formal.all_mutants()
    assert set(expected) <= set(catalogue)
    # the formal-only ones are not simulated by make mutants
    simulated = {m.name for m in mutants.catalogue()}
    formal_only = {"arvalid_dropped", "ar_issued_under_stop", "beats_w_command_only", "end_addr_top_bit_dropped"}
    formal_only |= {"start_taken_while_busy", "illegal_descriptor_reads", "done_survives_reset"}
    assert formal_only == set(catalogue) - simulated


def test_a_kill_of_an_unknown_mutant_is_refused_before_anything_runs(monkeypatch):
    plan = testplan.load()
    sets = dict(plan.formal)
    sets["atom_fifo"] = dataclasses.replace(sets["atom_fifo"], kills=("tlast_dropped", "no_such_bug"))
    monkeypatch.setattr(testplan, "load", lambda *a, **k: dataclasses.replace(plan, formal=sets))
    with pytest.raises(Refusal, match=r"kills names unknown mutant\(s\) \['no_such_bug'\]"):
        formal.main(["--mutants"])


def test_a_formal_only_catalogue_that_is_missing_or_repeats_a_simulated_mutant_is_refused(tmp_path, monkeypatch):
    plan = testplan.load()
    with pytest.raises(PlanError, match="formal_mutants: nosuch.yaml: no such catalogue file"):
        formal.all_mutants(dataclasses.replace(plan, formal_mutants=("nosuch.yaml",)))
    again = tmp_path / "again.yaml"
    again.write_text(
        "mutants:\n- {name: burst_crosses_4kb, family: f, bug: b, file: axi_rd_engine.sv, old: x, new: y}\n"
    )
    with pytest.raises(PlanError, match="mutant burst_crosses_4kb: defined again"):
        formal.all_mutants(dataclasses.replace(plan, formal_mutants=(str(again),)))


def test_a_corner_kill_runs_the_set_at_that_corner_and_a_plain_one_the_set_itself():
    plan = testplan.load()
    catalogue = formal.all_mutants(plan)
    chosen = list(formal.proofs(plan))
    (p,) = formal.mutant_sets("beats_w_command_only", catalogue["beats_w_command_only"], plan, chosen)
    assert p.name == "axi_rd_engine_b256@narrow_addr_wide_bus"
    assert (p.params["ADDR_W"], p.params["DATA_W"], p.params["MAX_BURST"], p.params["LEN_W"]) == (12, 1024, 256, 13)
    (q,) = formal.mutant_sets("tlast_dropped", catalogue["tlast_dropped"], plan, chosen)
    assert q is plan.formal["atom_fifo"]
    # a mutant no set kills runs on every chosen set whose design holds its file (make formal MUTANT=)
    other = formal.mutant_sets("axil_unmapped_read_okay", catalogue["axil_unmapped_read_okay"], plan, chosen)
    assert [s.name for s in other] == ["axil_regs"]


DMA = ROOT / "examples" / "stream_dma"


def test_an_id_binding_file_is_read_with_its_ids_and_the_builds_define():
    # oracle: the ``AXI4_READ_MASTER_BIND_ID`` line of examples/stream_dma/rtl/stream_dma_props.sv, by hand
    b = formalplan.binding_file(DMA / "rtl" / "stream_dma_props.sv", {"STREAM_DMA_DATA_W": 128})
    assert (b.top, b.prefix, b.clock, b.reset, b.reset_active, b.ids) == (
        "stream_dma",
        "m_axi_gmem_",
        "ap_clk",
        "ap_rst_n",
        0,
        True,
    )
    assert b.params == {
        "ADDR_W": "32",
        "DATA_W": "128",
        "ID_W": "4",
        "ARID": "4'd5",
        "MAX_OUTSTANDING": "0",
        "TRACK": "4096",
        "MAX_BURST": "8",
    }
    assert formalplan.binding_file(EXAMPLE / "rtl" / "desc_reader_props.sv").ids is False  # the plain macro
    with pytest.raises(
        ValueError, match=r"DATA_W uses `STREAM_DMA_DATA_W, which neither the build nor the file defines"
    ):
        formalplan.binding_file(DMA / "rtl" / "stream_dma_props.sv")


def test_a_define_the_build_does_not_give_takes_the_binding_files_own_default():
    # oracle: blocks/selftest_dma/rtl/byte_dma_props.sv by hand: `ifndef BYTE_DMA_ALIGNED / `define ... 1'b0
    path = ROOT / "blocks" / "selftest_dma" / "rtl" / "byte_dma_props.sv"
    assert formalplan.binding_file(path).params["ALIGNED"] == "1'b0"
    assert formalplan.binding_file(path, {"BYTE_DMA_ALIGNED": "1'b1"}).params["ALIGNED"] == "1'b1"  # the build wins


def _dma_plan(monkeypatch) -> testplan.Plan:
    monkeypatch.setattr(project, "ROOT", DMA)
    monkeypatch.setattr(buildopts, "ROOT", DMA)
    return testplan.load(DMA / "testplan.yaml")


def test_the_dma_set_overrides_its_table_and_keeps_descriptors_in_the_contract(monkeypatch):
    (p,) = _dma_plan(monkeypatch).formal.values()
    assert (p.name, p.top, p.build, p.depth, p.quick_depth, p.cover) == (
        "stream_dma",
        "stream_dma",
        "stream_dma",
        14,
        10,
        True,
    )
    assert p.bind is not None and p.bind.ids
    assert (p.bind.params["TRACK"], p.bind.params["DATA_W"], p.bind.params["ARID"]) == ("16", "64", "4'd5")
    assert p.inputs == {"s_desc_len": 16} and p.assume == ("s_desc_len != 0",)
    top = formalplan.wrapper(p)
    # ARID and RID at ID_W (4) bits, on the design and on the property set; the assumed input a port of the top
    for line in (
        "input  logic [3:0] m_axi_gmem_rid,",
        "logic [3:0] m_axi_gmem_arid;",
        ".m_axi_gmem_arid (m_axi_gmem_arid),",
        ".m_axi_gmem_rid (m_axi_gmem_rid),",
        ".arid (m_axi_gmem_arid),",
        ".rid (m_axi_gmem_rid),",
        "input  logic [15:0] s_desc_len",
        ".s_desc_len (s_desc_len)",
        "always @* assume (s_desc_len != 0);",
        ".TRACK (16)",
    ):
        assert line in top, line
    plain = formalplan.wrapper(dataclasses.replace(p, bind=dataclasses.replace(p.bind, ids=False)))
    assert ".arid ('0)" in plain and ".rid ('0)" in plain and "m_axi_gmem_rid" not in plain


def test_a_plan_map_binding_with_ids_connects_them_at_its_id_width(monkeypatch):
    raw = {
        "build": "stream_dma",
        "depth": 4,
        "quick_depth": 2,
        "what": "w",
        "bind": {
            "prefix": "m_axi_gmem_",
            "clock": "ap_clk",
            "reset": "ap_rst_n",
            "reset_active": 0,
            "ids": True,
            "parameters": {"ADDR_W": 32, "ID_W": 6},
        },
    }
    builds = _dma_plan(monkeypatch).builds
    q = formalplan.proof("m", raw, DMA, builds)
    assert q.bind is not None and q.bind.ids and q.bind.source == ""
    top = formalplan.wrapper(q)
    assert "input  logic [5:0] m_axi_gmem_rid" in top and ".rid (m_axi_gmem_rid)" in top
    assert not formalplan.proof("m", {**raw, "bind": {**raw["bind"], "ids": False}}, DMA, builds).bind.ids


def _dma_copy(tmp_path: Path) -> Path:
    return shutil.copytree(DMA, tmp_path / "my_dma", ignore=shutil.ignore_patterns("sim_build"))


def _make_formal(mine: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "formal", *args, f"PYTHON={sys.executable}"],
        cwd=mine,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.sim
def test_make_formal_proves_the_read_master_set_with_its_ids_on_the_dma(tmp_path):
    mine = _dma_copy(tmp_path)
    done = _make_formal(mine)
    assert done.returncode == 0, done.stdout + done.stderr
    row = _row(done.stdout, "stream_dma")
    # full depth, both covers reached; ARID 5 declared, so ARID tied to 0 could not pass: the IDs are connected
    assert row[1:5] == ["PASS", "depth", "14", "bmc+cover"] and "2 covers reached" in " ".join(row), done.stdout
    assert "formal: 1/1 property sets pass (full depths" in done.stdout


#: stream_dma's own mutant (its mutants.yaml, page_split_missing): bursts no longer cut at the 4 KB page end
DMA_PAGE_BUG = ("if (32'(beats) > 32'(to_page)) beats", "if (32'(beats) > 32'(to_page) + 32'd1024) beats")
#: the binding declaring ARID 6 where the DMA's AXI_ID is 5
DMA_WRONG_ID = (".ARID (4'd5)", ".ARID (4'd6)")


@pytest.mark.sim
@pytest.mark.parametrize(
    "path, edit, broken",
    [
        ("rtl/stream_dma.sv", DMA_PAGE_BUG, "'burst inside one 4 KB page'"),
        ("rtl/stream_dma_props.sv", DMA_WRONG_ID, "'ARID'"),
    ],
    ids=["a burst across 4 KB", "a misdeclared ARID"],
)
def test_the_dma_set_fails_on_a_bug_or_a_wrong_id(tmp_path, path, edit, broken):
    mine = _dma_copy(tmp_path)
    text = (mine / path).read_text()
    assert text.count(edit[0]) == 1, edit[0]
    (mine / path).write_text(text.replace(*edit))
    done = _make_formal(mine, "QUICK=1")
    assert done.returncode != 0, done.stdout
    row = " ".join(_row(done.stdout, "stream_dma"))
    assert row.startswith("stream_dma FAIL") and broken in row, done.stdout
