"""File lists are read as the simulators read them (dlaverif/flow/filelists.py): paths relative to the list that names
them, ``-f`` nesting relative to the including list, ``$VAR``/``${VAR}`` from the environment (an unset one is an
error naming it), ``+incdir+``, ``+define+``, ``-y``/``-v``/``+libext+`` and any extension; and a testplan build's
own options (dlaverif/flow/buildopts.py) reach both simulators: RTL outside blocks/rtl/ with a header, a define, a
library folder and a lint waiver builds on Verilator and Icarus."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlaverif.flow import buildopts, filelists, runner


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def foreign(tmp_path: Path) -> Path:
    """A reader's RTL in another project's layout: lists in two folders, a header, a library folder."""
    write(tmp_path / "ip" / "rtl" / "core.v", "`timescale 1ns/1ps\nmodule core; endmodule\n")
    write(tmp_path / "ip" / "inc" / "widths.svh", "localparam int W = `FROM_LIST;\n")
    write(tmp_path / "ip" / "lib" / "leaf.sv", "`timescale 1ns/1ps\nmodule leaf(input logic [3:0] a); endmodule\n")
    write(
        tmp_path / "ip" / "rtl" / "top.sv",
        "`timescale 1ns/1ps\nmodule top(input logic [7:0] wide, output logic [3:0] narrow);\n"
        '  `include "widths.svh"\n  core u_core ();\n  leaf u_leaf (.a(narrow));\n'
        '  initial if (W != 3) $fatal(1, "FROM_LIST");\n'
        "  assign narrow = wide;  // WIDTHTRUNC: Verilator stops here unless the build waives it\nendmodule\n",
    )
    write(tmp_path / "ip" / "rtl" / "core.f", "// the core, by a name relative to this list\ncore.v\n")
    write(
        tmp_path / "ip" / "flists" / "top.f",
        "-f ../rtl/core.f  // nested, relative to this list\n+incdir+${IP_ROOT}/inc\n+define+FROM_LIST=3+UNUSED\n"
        "-y $IP_ROOT/lib +libext+.sv\n$IP_ROOT/rtl/top.sv\n",
    )
    return tmp_path


def test_a_list_reads_as_a_simulator_reads_it(foreign: Path) -> None:
    fl = filelists.parse(foreign / "ip" / "flists" / "top.f", {"IP_ROOT": str(foreign / "ip")})
    assert [p.resolve() for p in fl.sources] == [foreign / "ip" / "rtl" / "core.v", foreign / "ip" / "rtl" / "top.sv"]
    assert fl.incdirs == [foreign / "ip" / "inc"]
    assert fl.defines == {"FROM_LIST": "3", "UNUSED": "1"}
    assert fl.libdirs == [foreign / "ip" / "lib"] and fl.libexts == [".sv"]
    assert fl.compile_args("verilator") == ["-y", str(foreign / "ip" / "lib"), "+libext+.sv"]
    assert fl.compile_args("icarus") == ["-y", str(foreign / "ip" / "lib"), "-Y.sv"]


def test_an_unset_variable_an_unknown_option_and_a_loop_are_errors_naming_them(tmp_path: Path) -> None:
    flist = write(tmp_path / "a.f", "${NO_SUCH_VAR_31}/x.sv\n")
    with pytest.raises(ValueError, match=r"a\.f: \$NO_SUCH_VAR_31 is not set"):
        filelists.parse(flist, {})
    write(tmp_path / "b.f", "+bogus+x\n")
    with pytest.raises(ValueError, match=r"b\.f: unknown option '\+bogus\+x'"):
        filelists.parse(tmp_path / "b.f", {})
    write(tmp_path / "c.f", "-f d.f\n")
    write(tmp_path / "d.f", "-f c.f\n")
    with pytest.raises(ValueError, match="includes itself"):
        filelists.parse(tmp_path / "c.f", {})
    write(tmp_path / "e.f", "x.sv -y\n")
    with pytest.raises(ValueError, match="-y without its argument"):
        filelists.parse(tmp_path / "e.f", {})


def test_our_lists_read_as_before() -> None:
    # every name of blocks/rtl/<folder>/<top>.f is a file of blocks/rtl/ (its own folder's, or common/ through
    # ../common/ and -F ../common/common.f), each once, in list order (common.f first)
    names = [p.name for p in filelists.sources(runner.RTL, "cube_reader")]
    assert names[:6] == [
        "accel_csr_pkg.sv",
        "accel_pkg.sv",
        "param_contract.sv",
        "axil_regs.sv",
        "sdp_ram.sv",
        "axi_rd_engine.sv",
    ]
    assert names[-1] == "cube_reader.sv" and len(names) == len(set(names))
    assert {p.parent.name for p in filelists.sources(runner.RTL, "cube_reader")} == {"common", "cube_reader"}
    assert all(p.parent.parent == runner.RTL and ".." not in p.parts for p in filelists.sources(runner.RTL))


def test_a_top_list_is_found_in_its_readers_folder() -> None:
    assert filelists.top_list(runner.RTL, "weight_reader") == runner.RTL / "weight_reader" / "weight_reader.f"
    assert filelists.top_list(runner.RTL, "common") is None and filelists.top_list(runner.RTL, "props") is None
    assert filelists.locate(runner.RTL, "sync_fifo.sv") == runner.RTL / "common" / "sync_fifo.sv"
    with pytest.raises(ValueError, match="nosuch.sv: no file of that name"):
        filelists.locate(runner.RTL, "nosuch.sv")


def options(foreign: Path, waivers: tuple[str, ...]) -> buildopts.BuildOptions:
    return buildopts.from_plan(
        "foreign",
        {
            "toplevel": "top",
            "filelist": str(foreign / "ip" / "flists" / "top.f"),
            "properties": "none",
            "lint_waivers": list(waivers),
            "defines": {"EXTRA": 1},
        },
    )


@pytest.mark.sim
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_a_foreign_build_compiles_with_its_own_list_and_options(
    sim: str, foreign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IP_ROOT", str(foreign / "ip"))
    b = runner.build(sim, "top", "foreign", build_dir=foreign / "build", options=options(foreign, ("WIDTHTRUNC",)))
    assert b.toplevel == "top" and any((foreign / "build").iterdir())


@pytest.mark.sim
def test_without_its_lint_waiver_verilator_stops_on_the_foreign_warning(
    foreign: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("IP_ROOT", str(foreign / "ip"))
    with pytest.raises(RuntimeError, match="Command failed"):
        runner.build("verilator", "top", "foreign-nowaiver", build_dir=foreign / "b2", options=options(foreign, ()))
    err = capfd.readouterr().err
    assert "%Warning-WIDTHTRUNC" in err and "top.sv:7" in err, err
