"""The NVDLA platform parts without a simulator: the DMA read response packing and its mask, the CSB
request packet, the flagged output word, NVIDIA's register description through the two dialect fixes, and where
NVIDIA's files come from (NVDLA_HW, its default, the one line when neither exists)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from dlaverif import thirdparty
from dlaverif.agents.axi_mem import SparseMemory
from dlaverif.agents.nvdla import csb
from dlaverif.agents.nvdla.dma_read import ATOM, POISON, pack_response, responses
from dlaverif.flow import sim as simflow, testplan
from dlaverif.thirdparty import nvdla_rdl


def test_a_two_atom_response_is_low_first_with_mask_11():
    a, b = bytes(range(32)), bytes(range(100, 132))
    payload, mask = pack_response(a + b)
    assert mask == 0b11
    assert payload.to_bytes(64, "little") == a + b


def test_a_one_atom_response_has_mask_01_and_poison_above():
    payload, mask = pack_response(bytes(range(32)))
    assert mask == 0b01
    assert payload.to_bytes(64, "little")[32:] == bytes([POISON]) * 32


@pytest.mark.parametrize("nbytes", [0, 16, 96])
def test_a_response_holds_one_or_two_atoms(nbytes):
    with pytest.raises(ValueError, match="one or two"):
        pack_response(bytes(nbytes))


def test_a_request_of_an_odd_width_ends_with_a_single_atom():
    mem = SparseMemory(1 << 20)
    blob = np.arange(5 * ATOM, dtype=np.uint8)
    mem.write(0x1000, blob.tobytes())
    got = responses(0x1000, 5, mem)
    assert [(a, m) for a, _, m in got] == [(0x1000, 3), (0x1040, 3), (0x1080, 1)]
    assert got[1][1].to_bytes(64, "little") == blob[64:128].tobytes()


def test_csb_request_fields():
    pd = csb.request(0xA01C, 0x1234_5678, write=True, nposted=True)
    assert pd & ((1 << 22) - 1) == 0xA01C >> 2
    assert (pd >> 22) & 0xFFFF_FFFF == 0x1234_5678
    assert (pd >> 54) & 1 == 1 and (pd >> 55) & 1 == 1
    assert (pd >> 57) & 0xF == 0xF
    read = csb.request(0xA008)
    assert (read >> 54) & 1 == 0 and (read >> 22) & 0xFFFF_FFFF == 0


def test_flagged_word_fields_round_trip():
    from blocks.pdp_rdma.env import STREAM

    flags = STREAM.encode(pos_w=np.arange(20) % 16, pos_c=3, b_sync=1, cube_end=1)
    back = STREAM.decode(flags)
    assert (back["pos_w"] == np.arange(20) % 16).all()
    assert (back["pos_c"] == 3).all() and (back["surf_end"] == 0).all()
    # NVIDIA's packing (NV_NVDLA_PDP_RDMA_eg.v:1356-1364) seen from the flag bits: pos_w [67:64] ... cube_end [75]
    names = ("pos_w", "pos_c", "b_sync", "line_end", "surf_end", "split_end", "cube_end")
    assert [STREAM.lsb(f) + 64 for f in names] == [64, 68, 71, 72, 73, 74, 75]
    assert STREAM.last_mask == 1 << 7 | 1 << 11


def test_the_two_dialect_fixes():
    text = "field { spec_access = r; } F;\naddrmap {\n    regs R @0x0;\n}addrmap_NVDLA;\n"
    fixed = nvdla_rdl.fix_dialect(text)
    assert 'spec_access = "r";' in fixed
    assert "addrmap addrmap_NVDLA_t {" in fixed and "}addrmap_NVDLA;" not in fixed


def test_nvidias_rdl_gives_the_offsets_nvidias_readme_lists(nvdla_hw: Path, tmp_path: Path) -> None:
    regs = nvdla_rdl.load(nvdla_rdl.manual("NVDLA_PDP_RDMA"), tmp_path)
    base = regs.address("S_STATUS")
    readme = {  # thirdparty/nvdla-pdp-rdma/README.md, "Registers"
        "D_OP_ENABLE": 0x08, "D_DATA_CUBE_IN_WIDTH": 0x0C, "D_DATA_CUBE_IN_HEIGHT": 0x10,
        "D_DATA_CUBE_IN_CHANNEL": 0x14, "D_FLYING_MODE": 0x18, "D_SRC_BASE_ADDR_LOW": 0x1C,
        "D_SRC_BASE_ADDR_HIGH": 0x20, "D_SRC_LINE_STRIDE": 0x24, "D_SRC_SURFACE_STRIDE": 0x28, "D_SRC_RAM_CFG": 0x2C,
        "D_DATA_FORMAT": 0x30, "D_OPERATION_MODE_CFG": 0x34,
    }  # fmt: skip
    assert {name: regs.address(name) - base for name in readme} == readme
    assert regs.enum("D_SRC_RAM_CFG", "SRC_RAM_TYPE", "MC") == 1
    assert regs.enum("D_FLYING_MODE", "FLYING_MODE", "OFF_FLYING") == 1
    assert regs.value("D_POOLING_KERNEL_CFG", KERNEL_STRIDE_WIDTH=2) == 0x20
    with pytest.raises(ValueError, match="does not fit"):
        regs.value("D_SRC_RAM_CFG", SRC_RAM_TYPE=2)
    original = nvdla_hw / "spec" / "manual" / "NVDLA_PDP_RDMA.rdl"
    assert "spec_access     = r;" in original.read_text()  # NVIDIA's file is untouched: the fixes went to a copy
    assert 'spec_access     = "r";' in (tmp_path / "NVDLA_PDP_RDMA.rdl").read_text()  # in the caller's folder


#: an NVIDIA-style description of a user's own block (Ordt's dialect: bare spec_access, an anonymous root)
OWN_RDL = """property spec_access { type = string; component = field; };
regfile regs_MY_READER {
    default regwidth=32;
    reg { name = "D_OP_ENABLE";
        enum D_OP_ENABLE_OP_EN_enum { DISABLE = 1'd0; ENABLE = 1'd1; };
        field { encode = D_OP_ENABLE_OP_EN_enum; sw = rw; hw = r; spec_access = rw; reset = 0x0; } OP_EN[0:0];
    } D_OP_ENABLE @0x8;
    reg { name = "D_WIDTH";
        field { sw = rw; hw = r; spec_access = rw; reset = 0x0; } WIDTH[12:0];
    } D_WIDTH @0xc;
};
addrmap  {
    regs_MY_READER MY_READER @0x5000;
}addrmap_NVDLA;
"""


def test_the_loader_takes_any_nvidia_style_file_and_writes_into_the_callers_folder(tmp_path: Path) -> None:
    src = tmp_path / "project" / "MY_READER.rdl"
    src.parent.mkdir()
    src.write_text(OWN_RDL)
    build = tmp_path / "project" / "sim_build"
    regs = nvdla_rdl.load(src, build)
    assert regs.name == "MY_READER" and regs.source == str(src)
    assert (regs.address("D_OP_ENABLE"), regs.address("D_WIDTH")) == (0x5008, 0x500C)
    assert regs.value("D_WIDTH", WIDTH=0x1FFF) == 0x1FFF and regs.enum("D_OP_ENABLE", "OP_EN", "ENABLE") == 1
    assert src.read_text() == OWN_RDL  # the user's file untouched
    assert [p.name for p in build.iterdir()] == ["MY_READER.rdl"]  # the fixed copy: in the given build folder only
    assert sorted(p.name for p in src.parent.iterdir()) == ["MY_READER.rdl", "sim_build"]


def test_a_missing_or_broken_rdl_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(nvdla_rdl.RdlError, match="no such register description"):
        nvdla_rdl.load(tmp_path / "NONE.rdl", tmp_path)
    bad = tmp_path / "BAD.rdl"
    bad.write_text("regfile rf {\n reg { field { sw = rw; } F[0:0] } R @0x0;\n};\n")  # a field without its ";"
    with pytest.raises(nvdla_rdl.RdlError, match="does not compile after the two dialect fixes") as e:
        nvdla_rdl.load(bad, tmp_path / "out")
    assert "\n" not in str(e.value).strip()


@pytest.fixture
def no_nvdla(monkeypatch, tmp_path):
    """Neither NVDLA_HW nor its default: the plan's root declared (when the plan is loaded) with one that is not on
    disk."""
    monkeypatch.delenv(thirdparty.NVDLA_HW, raising=False)
    declare = thirdparty.declare
    nowhere = (tmp_path / "nowhere",)
    monkeypatch.setattr(thirdparty, "declare", lambda roots: declare((n, nowhere, m, g) for n, _, m, g in roots))
    monkeypatch.setitem(thirdparty.DEFAULTS, thirdparty.NVDLA_HW, (nowhere, "a checkout of nvdla/hw"))


def test_without_nvdla_hw_the_build_says_what_to_set(no_nvdla, tmp_path):
    build = testplan.load().builds["nvdla_pdp_rdma"]
    assert build.missing is not None and "NVDLA_HW=<a checkout of nvdla/hw (branch nvdlav1)>" in build.missing
    assert "make nvdla" in build.missing and str(tmp_path / "nowhere") in build.missing
    others = [b for b in testplan.load().builds.values() if b.missing is not None]
    assert sorted(b.name for b in others) == ["nvdla_cdma", "nvdla_pdp_rdma", "nvdla_pdp_rdma_public"]  # NVIDIA's


def test_without_nvdla_hw_make_sim_of_its_run_is_one_line(no_nvdla, capsys):
    assert simflow.main(["--sim", "icarus", "--runs", "pdp_rdma/random"]) == 2  # nothing selected can run
    lines = capsys.readouterr().out.splitlines()
    said = f"skipped: pdp_rdma/random: {thirdparty.hint(thirdparty.NVDLA_HW)}"
    assert [line for line in lines if line.startswith("skipped")] == [said]  # the one line, before the table
    table = lines[lines.index("-" * 112) + 1 : len(lines) - lines[::-1].index("-" * 112) - 1]
    assert [r.split() for r in table] == [
        ["pdp_rdma/random", "(every", "test", "of", "the", "run)", "SKIP"],
        [*said.split()],
    ]
    assert lines[-1].startswith("regression: 0 passed, 0 failed, 1 skipped")


def test_nvdla_hw_naming_no_checkout_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv(thirdparty.NVDLA_HW, str(tmp_path))
    build = testplan.load().builds["nvdla_pdp_rdma"]
    assert build.missing is not None and f"NVDLA_HW={tmp_path} is not a checkout of nvdla/hw" in build.missing


def test_without_nvdla_hw_make_regress_skips_its_jobs_and_reports_them(no_nvdla, tmp_path, capsys):
    """make regress of the run: nothing is built, every job is recorded as skipped with the one line, the report's
    tables say so, and the regression passes (exit 0: a skip is no failure)."""
    from dlaverif.flow.regression import __main__ as regression

    report = tmp_path / "report"
    argv = ["run", "--sim", "icarus", "--suite", "smoke", "--runs", "pdp_rdma/random", "--seeds", "1", "--jobs", "1"]
    argv += ["--coverage", "0", "--out", str(tmp_path / "reg"), "--report-dir", str(report), "--history", "none"]
    assert regression.main(argv) == 0
    said = f"skipped: pdp_rdma/random: {thirdparty.hint(thirdparty.NVDLA_HW)}"
    out = capsys.readouterr().out
    assert out.count(said) == 2, out  # once as the run starts, once in the summary's Skipped table
    assert not (tmp_path / "reg" / "builds" / "icarus" / "nvdla_pdp_rdma").exists()  # nothing built
    results = json.loads((report / "results.json").read_text())
    g = results["regression"]
    n = g["jobs"]  # one per test of the run (one seed, one simulator)
    assert n > 1 and (g["passed"], g["failed"], g["skipped"], g["not_run"]) == (0, 0, n, 0), g
    assert results["skipped"] == [{"sim": "icarus", "run": "pdp_rdma/random", "jobs": n, "reason": said}]
    summary = (report / "summary.md").read_text()
    assert f"**0 passed, 0 failed**, {n} skipped of {n} jobs" in summary
    assert f"| nvdla_pdp_rdma | defaults |  | {n} | 0 ({n} skipped) |" in summary  # its configuration's row
    junit = ET.parse(report / "junit.xml").getroot()
    assert junit.get("skipped") == str(n) and junit.get("failures") == "0" and junit.get("errors") == "0"
    assert {s.get("message") for s in junit.iter("skipped")} == {said}
    html = (report / "index.html").read_text()
    assert '<table id="skipped">' in html and said in html


def test_a_flagged_streams_end_of_job_is_a_predicate_over_its_fields():
    from dlaverif.agents.nvdla.flagged_stream import FlaggedStream

    fields = (("count", 4), ("eoj", 1))
    by_flags = FlaggedStream("s", 64, fields, last=("eoj",))
    by_rule = FlaggedStream("s", 64, fields, end=lambda f: f["count"] == 15 and not f["eoj"])
    word = {"count": 15, "eoj": 0}
    user = int(by_rule.encode(**word))
    assert (by_flags.ends(user), by_rule.ends(user)) == (False, True)
    user = int(by_rule.encode(count=15, eoj=1))
    assert (by_flags.ends(user), by_rule.ends(user)) == (True, False)
    with pytest.raises(ValueError, match="says how a job ends"):
        FlaggedStream("s", 64, fields)
    with pytest.raises(KeyError, match="no field 'done'"):
        FlaggedStream("s", 64, fields, last=("done",))


def test_a_binding_reaches_an_internal_signal_by_its_dotted_path():
    from types import SimpleNamespace

    from dlaverif.platform.binding import DutBinding, PinControl, ResetPin

    done = object()
    dut = SimpleNamespace(_name="top", fin_o=object(), u_core=SimpleNamespace(u_eg=SimpleNamespace(done=done)))
    b = DutBinding(PinControl("go", "fin_o"), "clk", ResetPin("rst"), "", ("out",))
    assert b.signal(dut, "fin_o") is dut.fin_o
    assert b.signal(dut, "u_core.u_eg.done") is done
    with pytest.raises(AttributeError, match="names signal 'u_core.u_ig.done'.*verilator public"):
        b.signal(dut, "u_core.u_ig.done")
    with pytest.raises(AttributeError, match="names port 'fin'"):
        b.signal(dut, "fin")


def test_a_request_is_answered_by_one_response_per_two_atoms_and_dealt_so():
    from dlaverif.agents.nvdla.dma_read import NvdlaBurst
    from dlaverif.footprint import Region
    from dlaverif.platform.attribution import attribute

    odd, even = NvdlaBurst(0, 0x1000, 4, 5, 1, 0), NvdlaBurst(0, 0x8000, 1, 5, 1, 3)  # 5 atoms, then 2
    assert (odd.beats, odd.nbytes, odd.responses) == (5, 160, 3)  # the read checker's bytes, the responses
    assert (even.beats, even.responses) == (2, 1)
    jobs = [[Region("a", 0x1000, 0x10A0)], [Region("b", 0x8000, 0x8040)]]
    shares = attribute(jobs, [odd, even], ["r0", "r1", "r2", "r3"], [])
    assert [s.r for s in shares] == [["r0", "r1", "r2"], ["r3"]]
