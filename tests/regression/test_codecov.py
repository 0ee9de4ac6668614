"""dlaverif.flow.regression.codecov: Verilator coverage.dat files merge with Debian's verilator_coverage (hits add up
per point), and are scored per RTL file (line, branch, toggle) with the testplan's waivers. The inputs are written in
Verilator's coverage.dat format by hand, so the expected numbers are known."""

from __future__ import annotations

from pathlib import Path

from dlaverif.flow import testplan
from dlaverif.flow.regression import codecov


def _rec(file: Path, line: int, page: str, comment: str, hier: str, hits: int) -> str:
    kind = page.removeprefix("v_")
    key = (
        f"\x01f\x02{file}\x01l\x02{line}\x01n\x021\x01t\x02{kind}\x01page\x02{page}/m\x01o\x02{comment}\x01h\x02{hier}"
    )
    return f"C '{key}' {hits}\n"


def _dat(path: Path, records: list[str]) -> Path:
    path.write_text("# SystemC::Coverage-3\n" + "".join(records))
    return path


def _rtl(tmp_path: Path) -> Path:
    rtl = tmp_path / "rtl"
    rtl.mkdir()
    (rtl / "m.sv").write_text("module m; endmodule\n" * 20)
    return rtl


def _scoring(rtl: Path, **fields) -> testplan.CoveragePlan:
    """A coverage plan that scores the one file ``m.sv`` of ``rtl``."""
    return testplan.CoveragePlan(files={"m.sv": rtl / "m.sv"}, **fields)


def test_verilator_coverage_is_available():
    assert codecov.tool("verilator_coverage"), f"verilator_coverage missing: {codecov.INSTALL}"
    assert codecov.tool("genhtml"), f"genhtml missing: {codecov.INSTALL}"


def test_merge_adds_hits_and_scores_lines_branches_toggles(tmp_path):
    rtl = _rtl(tmp_path)
    f = rtl / "m.sv"
    a = _dat(
        tmp_path / "a.dat",
        [
            _rec(f, 3, "v_line", "block", "top.m", 1),
            _rec(f, 5, "v_branch", "if", "top.m", 0),
            _rec(f, 5, "v_branch", "else", "top.m", 2),
            _rec(f, 7, "v_line", "block", "top.m", 0),
            _rec(f, 9, "v_toggle", "x:0->1", "top.m", 0),
        ],
    )
    b = _dat(
        tmp_path / "b.dat",
        [
            _rec(f, 5, "v_branch", "if", "top.m", 1),
            _rec(f, 9, "v_toggle", "x:0->1", "top.m", 0),
            _rec(f, 11, "v_line", "block", "top.m", 0),
            _rec(tmp_path / "other.sv", 1, "v_line", "block", "top.o", 0),
        ],
    )
    merged = codecov.merge([a, b], tmp_path / "out")
    files = codecov.score(merged, _scoring(rtl))
    assert [x.file for x in files] == ["m.sv"]  # files the plan does not score are ignored
    d = files[0].to_dict()
    assert d["line"] == [2, 4, 50.0]  # lines 3 and 5 hit (5: both branches), 7 and 11 not
    assert d["missed_lines"] == [7, 11]
    assert d["branch"] == [2, 2, 100.0]
    assert d["toggle"] == [0, 1, 0.0]
    assert codecov.totals(files)["lines"] == [2, 4, 50.0]


def test_a_line_is_covered_only_when_every_point_on_it_was_hit(tmp_path):
    rtl = _rtl(tmp_path)
    f = rtl / "m.sv"
    a = _dat(tmp_path / "a.dat", [_rec(f, 5, "v_branch", "if", "top.m", 3), _rec(f, 5, "v_branch", "else", "top.m", 0)])
    files = codecov.score(codecov.merge([a], tmp_path / "out"), _scoring(rtl))
    assert files[0].to_dict()["line"] == [0, 1, 0.0]


def test_waived_lines_leave_the_denominator(tmp_path):
    rtl = _rtl(tmp_path)
    f = rtl / "m.sv"
    a = _dat(tmp_path / "a.dat", [_rec(f, 3, "v_line", "block", "top.m", 1), _rec(f, 7, "v_line", "block", "top.m", 0)])
    plan = _scoring(rtl, code_waivers=(testplan.CodeWaiver("m.sv", 6, 8, "unreachable", "default arm"),))
    d = codecov.score(codecov.merge([a], tmp_path / "out"), plan)[0].to_dict()
    assert d["line"] == [1, 1, 100.0]
    assert d["waived"] == {"7": {"tag": "unreachable", "reason": "default arm"}}


def test_lcov_data_and_annotated_pages(tmp_path):
    rtl = _rtl(tmp_path)
    f = rtl / "m.sv"
    a = _dat(tmp_path / "a.dat", [_rec(f, 3, "v_line", "block", "top.m", 1), _rec(f, 7, "v_line", "block", "top.m", 0)])
    out = tmp_path / "report" / "code"
    merged = codecov.merge([a], out)
    files = codecov.score(merged, _scoring(rtl))
    info = codecov.html(merged, out, files)
    text = info.read_text()
    assert f"SF:{f}" in text and "DA:3,1" in text and "DA:7,0" in text
    assert files[0].html.endswith("m.sv.gcov.html") and (tmp_path / "report" / files[0].html).is_file()


def test_a_merge_longer_than_one_command_line_is_done_in_rounds(tmp_path, monkeypatch):
    """A 20-seed nightly (3200 paths, ~460 KB) overran the kernel's 128 KiB limit on the one command string
    Debian's Perl wrapper runs (it exited 7, E2BIG). 40 files with a limit of a few paths a command: two rounds of
    partial merges, and every point's hits are the sum over all files, as one merge of them gives."""
    rtl = _rtl(tmp_path)
    f = rtl / "m.sv"
    dats = []
    for i in range(40):
        recs = [_rec(f, 3, "v_line", "block", "top.m", 1), _rec(f, 9, "v_toggle", "x:0->1", "top.m", 0)]
        if i == 37:
            recs.append(_rec(f, 9, "v_toggle", "x:0->1", "top.m", 1))  # one file alone covers the toggle
        if i % 2:
            recs.append(_rec(f, 11 + i, "v_line", "block", "top.m", 0))  # odd files add a missed line each
        folder = tmp_path / f"job{i:02d}_with_a_long_folder_name_as_runs_have"
        folder.mkdir()
        dats.append(_dat(folder / "coverage.dat", recs))
    out = tmp_path / "rounds"
    fixed = len(codecov.tool("verilator_coverage")) + len(str(out)) + 64  # what merge() keeps for its own words
    limit = fixed + 4 * (len(str(dats[0])) + 1)  # 4 paths a command
    commands: list[list[str]] = []  # each command the wrapper gets: its binary, --write, the output, the inputs
    write = codecov._write

    def recording(exe: str, o: Path, paths: list[str], timeout_s: float | None = None, walls=None) -> None:
        commands.append([exe, "--write", str(o), *paths])
        write(exe, o, paths, timeout_s, walls)

    monkeypatch.setattr(codecov, "_write", recording)
    rounds = codecov.merge(dats, out, limit=limit)
    monkeypatch.undo()
    assert len(commands) > 10 and len(commands[0]) == 3 + 4  # 10 merges of 4 jobs, then of the partials, then one
    assert all(len(" ".join(c)) <= limit for c in commands)  # the one string the wrapper hands to the shell
    once = codecov.merge(dats, tmp_path / "once")
    assert not (tmp_path / "rounds" / "partial").exists()  # the partial merges are removed
    merged_lines = rounds.read_text().splitlines()
    assert merged_lines[1:] and sorted(merged_lines) == sorted(once.read_text().splitlines())
    d = codecov.score(rounds, _scoring(rtl))[0].to_dict()
    assert d["line"] == [1, 21, round(100 / 21, 2)]  # line 3, hit 40 times; 20 lines missed
    assert d["toggle"] == [1, 1, 100.0]
    assert any(" 40" in r and "\x02block" in r and "\x023\x01" in r for r in merged_lines)


def test_batches_keep_order_and_stay_within_the_limit():
    paths = [f"/r/{i:03d}/coverage.dat" for i in range(100)]
    batches = codecov._batches(paths, 200)
    assert [p for b in batches for p in b] == paths
    assert all(sum(len(p) + 1 for p in b) <= 200 for b in batches)
    assert len(batches) == -(-100 // (200 // (len(paths[0]) + 1)))
    assert codecov._batches(["x" * 500, "y"], 200) == [["x" * 500], ["y"]]  # a path longer than the limit goes alone
