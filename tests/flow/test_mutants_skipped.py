"""``make mutants`` without NVIDIA's files (``NVDLA_HW`` unset, no default on disk): the NVIDIA catalogue is skipped
with one line saying how to get the files, counted as skipped in the summary and the report, never run nor left
out silently. Each mutant is a fake child (it writes its result, no simulator): what is checked is the driver."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dlaverif import thirdparty
from dlaverif.executor import Step
from dlaverif.flow import mutants


def _nvidia() -> dict[str, list[str]]:
    """The plan's catalogues of NVIDIA's RTL (``root: NVDLA_HW``, read from the catalogue files), with their
    mutants."""
    return {
        path: [m.name for m in ms] for path, ms in mutants.catalogue_files() if any(m.root == "NVDLA_HW" for m in ms)
    }


def test_a_catalogue_whose_rtl_is_not_found_is_skipped_in_one_line_and_counted(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("NVDLA_HW", raising=False)
    nowhere = (tmp_path / "no-fetched-copy", tmp_path / "no-shared-copy")
    # the plan's roots, as loading it declares them, with defaults that are not on disk
    declare = thirdparty.declare
    monkeypatch.setattr(thirdparty, "declare", lambda roots: declare((n, nowhere, m, g) for n, _, m, g in roots))
    monkeypatch.setattr(mutants, "OUT_ROOT", tmp_path / "mutants")
    ran: list[str] = []

    def fake(name: str, args: object, log: Path, result: Path) -> Step:
        ran.append(name)
        outcome = {"name": name, "status": "PASS" if name == "baseline" else "KILLED", "killed_by": ["r:t"]}
        write = f"import json; json.dump({outcome!r}, open({str(result)!r}, 'w'))"
        log.parent.mkdir(parents=True, exist_ok=True)
        return Step(f"mutant {name}", [sys.executable, "-c", write], 30.0, log=log)

    monkeypatch.setattr(mutants, "_step", fake)
    catalogues = _nvidia()
    nvidia = [n for names in catalogues.values() for n in names]
    ours = [m.name for m in mutants.catalogue() if m.name not in nvidia]
    assert nvidia and ours  # the premise: the plan lists NVIDIA's catalogues and ours
    assert mutants.main(["--sim", "verilator"]) == 0
    out = capsys.readouterr().out
    said = [ln for ln in out.splitlines() if ln.startswith("skipped:")]
    assert len(said) == len(catalogues), out  # one line per catalogue
    for line, (path, names) in zip(said, catalogues.items()):
        assert line.startswith(f"skipped: {len(names)} mutant(s) of {path}: NVDLA_HW is not set and no default of it")
        assert "make nvdla" in line
    assert ran == ["baseline", *ours]  # none of NVIDIA's is run
    summary = f"mutants: {len(ours)}/{len(ours)} killed, 0 survived, 0 broken, {len(nvidia)} skipped"
    assert any(ln.startswith(summary) for ln in out.splitlines()), out
    report = json.loads((tmp_path / "mutants" / "verilator" / "report.json").read_text())
    assert report["summary"]["skipped"] == nvidia and report["summary"]["mutants"] == len(ours)
    assert not set(nvidia) & {m["name"] for m in report["mutants"]}


def test_nvdla_hw_naming_no_folder_is_said_so(tmp_path, monkeypatch):
    monkeypatch.setenv("NVDLA_HW", str(tmp_path / "gone"))
    chosen = list(mutants.catalogue())
    skipped = mutants.unavailable(chosen)
    assert [path for path, _, _ in skipped] == list(_nvidia())
    gone = (
        f"{tmp_path / 'gone'} does not exist: NVDLA_HW={tmp_path / 'gone'} is not {thirdparty.DEFAULTS['NVDLA_HW'][1]}"
    )
    assert {why for _, _, why in skipped} == {gone}
