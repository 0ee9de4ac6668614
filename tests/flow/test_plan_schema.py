"""The testplan's schema (dlaverif/flow/testplan.py SCHEMA, read by dlaverif/flow/planschema.py): each refusal is
one line, ``<file>:<line>: <key path>: <what>``, at the line the user wrote, with what is allowed and the nearest
known key for a typo. Each case edits a copy of the real top plan (blocks/plan.yaml, importing the blocks' plans:
tests/plancopy.py) and expects the exact line; the expected line number is found in the edited text by the test,
not taken from the code under test. No simulator."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlaverif.flow import testplan
from dlaverif.flow.planschema import PlanError, display
from tests import plancopy

PLAN = plancopy.top_text()
SECTIONS = plancopy.merged()  # the real plan's names (every file's), to count what a refusal lists


def _after(header: str, line: str) -> str:
    """The real top plan with ``line`` inserted right after its (only) line ``header`` (a section it leaves to the
    blocks' plans is added)."""
    return plancopy.with_section(PLAN, header, line)


def _refusal(tmp_path: Path, text: str, marker: str | None) -> tuple[str, str]:
    """Load ``text`` as a plan; (the refusal's line, the ``<file>:<line>`` prefix it must start with: the line of the
    first line of ``text`` holding ``marker``, or the file alone when ``marker`` is None). Nothing else is written."""
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    with pytest.raises(PlanError) as exc:
        testplan.load(p)
    assert sorted(tmp_path.iterdir()) == [p]  # nothing written beside the plan
    if marker is None:
        return str(exc.value), str(p)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if marker in t)
    return str(exc.value), f"{p}:{line}"


UNKNOWN_KEYS = [
    (
        "top level",
        PLAN + "sutes: {}\n",
        "sutes: {}",
        "sutes: unknown key; allowed: builds, runs, suites, testpoints, coverage, configs, imports, mutants, blocks, "
        "formal, formal_mutants "
        "(did you mean 'suites'?)",
    ),
    (
        "a run",
        _after("runs:", "  bad: {build: cube_reader, modul: blocks.cube_reader.tests}"),
        "  bad: {build",
        "runs.bad.modul: unknown key; allowed: build, module, tests, env, artifacts (did you mean 'module'?)",
    ),
    (
        "a suite: the nightly's reseeds",
        PLAN.replace("    reseeds: 20", "    reseed: 20", 1),
        "    reseed: 20",
        "suites.nightly.reseed: unknown key; allowed: count, reseeds, runs (did you mean 'reseeds'?)",
    ),
    (
        "a suite's run entry",
        _after("suites:", "  bad: {runs: [{run: cube_reader/uvm, evn: {COUNT: 1}}]}"),
        "  bad: {runs",
        "suites.bad.runs[0].evn: unknown key; allowed: run, env (did you mean 'env'?)",
    ),
    (
        "a testpoint",
        _after("testpoints:", "  - {name: bad, test: [cube_reader.tests::x]}"),
        "  - {name: bad",
        "testpoints[0].test: unknown key; allowed: name, desc, stimulus, checks, tests, covergroups "
        "(did you mean 'tests'?)",
    ),
    (
        "coverage",
        _after("coverage:", "  line_gaol: 90"),
        "line_gaol",
        "coverage.line_gaol: unknown key; allowed: goals, line_goal, exclusions, code_waivers, code_coverage "
        "(did you mean 'line_goal'?)",
    ),
    (
        "configs",
        _after("configs:", "  seeds: 3"),
        "  seeds: 3",
        "configs.seeds: unknown key; allowed: seed, random, count, nightly, tops (did you mean 'seed'?)",
    ),
    (
        "a top of the configuration matrix",
        _after("configs:", "  tops:\n    bad: {run: cube_reader/config, corner: {}}"),
        "    bad: {run",
        "configs.tops.bad.corner: unknown key; allowed: run, corners, waive, smoke, limits, env, formal, formal_at, "
        "occupancy, reach_bounds, beat_lanes (did you mean 'corners'?)",
    ),
    (
        "a block",
        _after("blocks:", "  bad: {datasheat: docs/cube_reader.md}"),
        "  bad: {datasheat",
        "blocks.bad.datasheat: unknown key; allowed: datasheet, roots (did you mean 'datasheet'?)",
    ),
    (
        "a block's third-party root",
        _after("blocks:", "  bad: {roots: {THEIR_HW: {means: their tree, defualts: [x]}}}"),
        "  bad: {roots",
        "blocks.bad.roots.THEIR_HW.defualts: unknown key; allowed: means, defaults, get, lock "
        "(did you mean 'defaults'?)",
    ),
    (
        "a key without a near one",
        _after("runs:", "  bad: {build: cube_reader, module: m, zzz: 1}"),
        "  bad: {build",
        "runs.bad.zzz: unknown key; allowed: build, module, tests, env, artifacts",
    ),
]


@pytest.mark.parametrize("what, text, marker, message", UNKNOWN_KEYS, ids=[c[0] for c in UNKNOWN_KEYS])
def test_an_unknown_key_at_any_level_is_refused_with_its_line_and_the_nearest_key(
    tmp_path, what, text, marker, message
):
    line, where = _refusal(tmp_path, text, marker)
    assert line == f"{where}: {message}"


WRONG = [
    (
        "a count that is not a number",
        _after("suites:", "  bad: {count: many, runs: [cube_reader/uvm]}"),
        "  bad: {count",
        "suites.bad.count: expected a whole number, not 'many'",
    ),
    (
        "one test where a list is expected",
        _after("runs:", "  bad: {build: cube_reader, module: m, tests: first}"),
        "  bad: {build",
        "runs.bad.tests: expected a list of strings, not 'first'",
    ),
    (
        "a map where a list is expected",
        _after("runs:", "  bad: {build: cube_reader, module: m, artifacts: {a: 1}}"),
        "  bad: {build",
        "runs.bad.artifacts: expected a list of strings, not a map",
    ),
    (
        "a value left empty",
        _after("suites:", "  bad:\n    reseeds:\n    runs: [cube_reader/uvm]"),
        "    reseeds:",
        "suites.bad.reseeds: expected a whole number, not nothing",
    ),
    (
        "a value outside its allowed ones",
        PLAN.replace("  nightly: random ", "  nightly: randm ", 1),
        "  nightly: randm",
        "configs.nightly: 'randm'; allowed: random (did you mean 'random'?)",
    ),
    (
        "a corner value that is neither a number nor min or max",
        _after("configs:", "  tops:\n    bad: {run: cube_reader/config, corners: {c: {AXI_DATA_W: maxi}}}"),
        "    bad: {run",
        "configs.tops.bad.corners.c.AXI_DATA_W: expected a whole number or one of min, max, not 'maxi'",
    ),
    (
        "a mutant catalogue that is not a catalogue file (the old module form)",
        _after("mutants:", "  - blocks.cube_reader.mutants"),
        "  - blocks.cube_reader.mutants",
        "mutants[0]: expected a mutant catalogue file (a .yaml path), not 'blocks.cube_reader.mutants'",
    ),
    (
        "a mutant catalogue that is not a string",
        _after("mutants:", "  - 7"),
        "  - 7",
        "mutants[0]: expected a mutant catalogue file (a .yaml path), not '7'",
    ),
    (
        "the mutant catalogues as one name instead of a list",
        PLAN + "mutants: blocks/cube_reader/mutants.yaml\n",
        "mutants: blocks/cube_reader/mutants.yaml",
        "mutants: expected a list of strings, not 'blocks/cube_reader/mutants.yaml'",
    ),
    (
        "a datasheet that is not a Markdown file",
        _after("blocks:", "  bad: {datasheet: docs/bad.pdf}"),
        "  bad: {datasheet",
        "blocks.bad.datasheet: expected a Markdown file from the project's root (docs/<block>.md), not 'docs/bad.pdf'",
    ),
    (
        "a root without what it means",
        _after("blocks:", "  bad: {roots: {THEIR_HW: {defaults: [x]}}}"),
        "  bad: {roots",
        "blocks.bad.roots.THEIR_HW: missing key means (required: means)",
    ),
    (
        "a missing required key",
        _after("runs:", "  bad: {build: cube_reader}"),
        "  bad: {build",
        "runs.bad: missing key module (required: build, module)",
    ),
    (
        "a code waiver naming neither a line nor a match",
        _after("  code_waivers:", "    - {file: cube_reader.sv, tag: low_risk, reason: x}"),
        "    - {file: cube_reader.sv, tag: low_risk, reason: x}",
        "coverage.code_waivers[0]: needs one of the keys match, lines",
    ),
]


@pytest.mark.parametrize("what, text, marker, message", WRONG, ids=[c[0] for c in WRONG])
def test_a_wrong_type_or_value_is_refused_with_its_line_and_what_is_allowed(tmp_path, what, text, marker, message):
    line, where = _refusal(tmp_path, text, marker)
    assert line == f"{where}: {message}"


BLOCKS = [
    (
        "a datasheet that does not exist",
        _after("blocks:", "  bad: {datasheet: docs/no_such_block.md}"),
        "  bad: {datasheet",
        "blocks.bad.datasheet: no file docs/no_such_block.md",
    ),
    (
        "a root that is not a variable's name",
        _after("blocks:", "  bad: {roots: {their-hw: {means: their tree}}}"),
        "their-hw",
        "blocks.bad.roots.their-hw: not a variable name ([A-Z_][A-Z0-9_]*)",
    ),
]


@pytest.mark.parametrize("what, text, marker, message", BLOCKS, ids=[c[0] for c in BLOCKS])
def test_a_block_entry_naming_what_is_not_there_is_refused_with_its_line(tmp_path, what, text, marker, message):
    # blocks: is read after the schema (a datasheet must exist, a root is defined once): still one line at its entry
    line, where = _refusal(tmp_path, text, marker)
    assert line == f"{where}: {message}"


def test_a_root_two_blocks_define_is_refused_at_the_second_naming_the_first(tmp_path):
    # the top plan's entry is read first; the block's own plan (blocks/pdp_rdma/plan.yaml) then defines it again
    line, _ = _refusal(tmp_path, _after("blocks:", "  bad: {roots: {NVDLA_HW: {means: another tree}}}"), None)
    theirs = testplan.PLAN_PATH.parent / "pdp_rdma" / "plan.yaml"
    at = next(i for i, t in enumerate(theirs.read_text().splitlines(), 1) if t.strip() == "NVDLA_HW:")
    assert line == f"{display(theirs)}:{at}: blocks.pdp_rdma.roots.NVDLA_HW: already a root of block bad"


def test_a_key_given_twice_is_refused_at_its_second_line_naming_the_first(tmp_path):
    """YAML keeps the last of two equal keys without a word: a second entry of a suite would replace the first (one
    defined in two files is the merge's refusal, tests/flow/test_plan_imports.py)."""
    text = _after("suites:", "  sim: {runs: [cube_reader/uvm]}")
    lines = text.splitlines()
    first = lines.index("  sim: {runs: [cube_reader/uvm]}") + 1
    second = next(i for i, t in enumerate(lines, 1) if t.split("#", 1)[0].rstrip() == "  sim:")
    line, _ = _refusal(tmp_path, text, None)
    assert line == f"{tmp_path / 'plan.yaml'}:{second}: suites.sim: key given twice (first at line {first})"


def test_an_unknown_build_or_run_named_is_refused_with_the_nearest_name(tmp_path):
    builds, runs = len(SECTIONS["builds"]), len(SECTIONS["runs"])
    cases = [
        (
            _after("runs:", "  bad: {build: cube_reder, module: m}"),
            "  bad: {build",
            f"runs.bad.build: unknown build 'cube_reder'; allowed: one of the {builds} names under builds: "
            "(did you mean 'cube_reader'?)",
        ),
        (
            _after("suites:", "  bad: {runs: [cube_reader/uvm-fst]}"),
            "  bad: {runs",
            f"suites.bad.runs[0]: unknown run 'cube_reader/uvm-fst'; allowed: one of the {runs} names under runs: "
            "(did you mean 'cube_reader/uvm-fast'?)",
        ),
        (
            _after("configs:", "  tops:\n    bad: {run: cube_reader/confg}"),
            "    bad: {run",
            f"configs.tops.bad.run: unknown run 'cube_reader/confg'; allowed: one of the {runs} names under runs: "
            "(did you mean 'cube_reader/config'?)",
        ),
    ]
    for text, marker, message in cases:
        line, where = _refusal(tmp_path, text, marker)
        assert line == f"{where}: {message}"


def test_a_short_list_of_names_is_listed_whole(tmp_path):
    text = "builds:\n  a: {toplevel: t}\n  b: {toplevel: u}\nruns:\n  r: {build: c, module: m}\nsuites: {}\n"
    line, where = _refusal(tmp_path, text, "  r: {build")
    assert line == f"{where}: runs.r.build: unknown build 'c'; allowed: a, b"


def test_a_yaml_syntax_error_is_one_line_at_its_line(tmp_path):
    line, where = _refusal(tmp_path, _after("runs:", "  bad: a: b"), "  bad: a: b")
    assert line == f"{where}: YAML syntax error: mapping values are not allowed here"


def test_a_colon_in_a_plain_scalar_continued_on_a_second_line_is_refused_at_that_line(tmp_path):
    """A description continued on the next line without quotes, that line holding ``word: word``: YAML reads a key
    where the text goes on, and the plan once failed to load that way. The line with the colon is the one named."""
    text = _after("testpoints:", "  - name: bad\n    desc: reads the cube\n      and then checks: the bytes")
    line, where = _refusal(tmp_path, text, "and then checks: the bytes")
    assert line == f"{where}: YAML syntax error: mapping values are not allowed here"


def test_a_tab_in_the_indentation_is_one_line_at_its_line(tmp_path):
    line, where = _refusal(tmp_path, _after("runs:", "\tbad: {build: cube_reader, module: m}"), "\tbad")
    assert line == f"{where}: a tab character; YAML indents with spaces only"


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"], ids=["empty", "blank lines", "a comment"])
def test_an_empty_file_is_one_line(tmp_path, text):
    line, where = _refusal(tmp_path, text, None)
    assert line == f"{where}: empty file; expected a map with builds, runs, suites and testpoints"


def test_a_plan_that_is_not_a_map_or_lacks_a_section_is_one_line(tmp_path):
    line, where = _refusal(tmp_path, "- builds\n- runs\n", "- builds")
    sections = "builds, runs, suites, testpoints, coverage, configs, imports, mutants, blocks, formal, formal_mutants"
    assert line == f"{where}: (top level): expected a map with keys {sections}, not a list"
    line, where = _refusal(tmp_path, "builds: {}\nruns: {}\ntestpoints: []\n", "builds")
    assert line == f"{where}: (top level): missing key suites (required: builds, runs, suites, testpoints)"


def test_a_plan_that_cannot_be_read_is_one_line(tmp_path):
    with pytest.raises(PlanError) as exc:
        testplan.load(tmp_path / "nosuch.yaml")
    assert str(exc.value) == f"{tmp_path / 'nosuch.yaml'}: cannot read the testplan: No such file or directory"


def test_the_plans_of_this_repository_pass_and_a_merge_key_is_read_as_yaml_reads_it(tmp_path):
    assert testplan.load().suites["nightly"].reseeds == 20
    p = tmp_path / "plan.yaml"
    p.write_text(
        "builds:\n  a: &d {toplevel: t, parameters: {W: 8}}\n  b:\n    <<: *d\n    toplevel: u\n"
        "runs: {}\nsuites: {}\ntestpoints: []\n"
    )
    b = testplan.load(p).builds["b"]
    assert (b.toplevel, b.parameters) == ("u", {"W": 8})


def test_a_relative_plan_is_named_as_the_user_wrote_it(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "plan.yaml").write_text("")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PlanError) as exc:
        testplan.load(Path("sub/plan.yaml"))
    assert str(exc.value).startswith("sub/plan.yaml: empty file")


def test_a_mutant_catalogue_that_is_missing_is_one_line_naming_it(tmp_path):
    """The schema checks that each ``mutants:`` entry is a .yaml path; whether the file is there is found when make
    mutants or make formal reads the catalogues, still one line, never a traceback."""
    from dlaverif.flow import mutants

    p = tmp_path / "plan.yaml"
    p.write_text(_after("mutants:", "  - blocks/no_such_block/mutants.yaml"))
    with pytest.raises(PlanError) as exc:
        mutants.catalogue(p)
    assert str(exc.value) == (
        f"{p}: mutants: blocks/no_such_block/mutants.yaml: no such catalogue file "
        "(looked for blocks/no_such_block/mutants.yaml)"
    )
    assert len(mutants.catalogue()) > 0  # the project's own plan: every catalogue is there
