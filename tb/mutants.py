"""`make mutants`: prove that the cube-reader tests catch real RTL bugs (mutation check).

Each mutant of :data:`MUTANTS` is one realistic bug written as exact text substitutions on a COPY of
``rtl_stubs/`` (``sim_build/mutants/<sim>/<name>/rtl_stubs/``; the real RTL is never touched). Every substitution's
old text must occur exactly once in its file, otherwise the check stops before simulating anything: an RTL edit
must never turn a mutant silently into a no-op. A substitution that leaves the file unchanged is refused too.

For each mutant (after the unmutated baseline, which must pass) the copy is built with ``tb.runner.build(...,
rtl_dir=...)`` into its own build directories (config ``mutant-<name>-<build>``) and the runs of the testplan's
``mutants`` suite (``tb/testplan.yaml``) run with a fixed seed; a run whose build lists the RTL files it depends on
(the read engine alone, the validator alone) runs only for mutants of those files.

A mutant is KILLED when at least one test fails (or the simulation dies, or exceeds ``--timeout``: a test run
that never ends is a failed run), SURVIVED when every test passes, BROKEN when its copy does not build (a
mutant must be a legal design: fix the mutant). The table names the tests that failed. Exit status 0 only when
the baseline passes and every mutant is killed. Report: ``sim_build/mutants/<sim>/report.json``; per mutant, the log
of its builds and runs and the JUnit files in ``sim_build/mutants/<sim>/<name>/``.

Each mutant runs in a child process (its own process group, so a hung simulator is stopped on ``--timeout``),
one after the other: builds use the machine's cores already (Verilator ~30-60 s per build with ccache).

Usage: ``python -m tb.mutants [--sim verilator|icarus] [--only NAME ...] [--seed N] [--count N] [--list]``
(``make mutants SIM=icarus``; ``SEED`` and ``COUNT`` from the environment are the defaults of the options).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tb import regress, runner, testplan

OUT_ROOT = runner.SIM_BUILD / "mutants"


def out_dir(sim: str) -> Path:
    """Per simulator, so that Verilator and Icarus mutation runs can go on side by side."""
    return OUT_ROOT / sim


# ---------------------------------------------------------------------------------------------- the mutants
@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (which must occur exactly once in ``rtl_stubs/<file>``) by ``new``."""

    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Mutant:
    name: str
    family: str            # the kind of bug (issue wording)
    bug: str               # what the mutated RTL does wrong
    edits: tuple[Edit, ...]

    @property
    def files(self) -> set[str]:
        return {e.file for e in self.edits}


def _m(name: str, family: str, bug: str, file: str, old: str, new: str) -> Mutant:
    return Mutant(name, family, bug, (Edit(file, old, new),))


ENG, VAL = "axi_rd_engine.sv", "desc_validator.sv"
# the cube reader's parts (cube_reader.sv is the top: register file and wiring)
CTRL, WALK, ASM, FIFO, FP16 = ("cr_job_ctrl.sv", "cr_run_walker.sv", "cr_atom_assembler.sv", "cr_atom_fifo.sv",
                               "cr_fp16_scan.sv")
# the weight reader's parts
WTOP, WEXP, WWGS, WVAL = "weight_reader.sv", "wr_expander.sv", "wr_wgs_unpack.sv", "wr_validator.sv"

MUTANTS: tuple[Mutant, ...] = (
    # ---- address walk / run structure (cr_run_walker.sv; beat lanes in cr_atom_assembler.sv)
    _m("line_count_off_by_one", "off-by-one in the line count",
       "one line run fewer per surface when lines are not contiguous (COUNT_H-1 runs issued)",
       WALK, "e_h        <= m_h_q ? 16'd1 : j_ch;", "e_h        <= m_h_q ? 16'd1 : j_ch - 16'd1;"),
    _m("packed_surface_one_line_short", "off-by-one in the line count",
       "a merged surface (contiguous lines) is sized COUNT_H-1 lines: the run is one line short",
       WALK, "s1_q    <= SZW'(j_ch) * s0;", "s1_q    <= SZW'(j_ch - 16'd1) * s0;"),
    _m("surface_stride_wrong", "wrong surface stride",
       "the next surface starts at COUNT_H*STRIDE_H instead of STRIDE_C (surface gaps ignored)",
       WALK, "a_c <= a_c + AXI_ADDR_W'(j_sc);\n            a_h <= a_c + AXI_ADDR_W'(j_sc);",
       "a_c <= a_c + AXI_ADDR_W'(j_sh) * AXI_ADDR_W'(j_ch);\n"
       "            a_h <= a_c + AXI_ADDR_W'(j_sh) * AXI_ADDR_W'(j_ch);"),
    _m("merge_lines_with_gap", "wrong line stride",
       "lines are merged into one run whenever STRIDE_H >= the line size (gaps read as atoms)",
       WALK, "m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) == s0);", "m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) >= s0);"),
    _m("first_beat_offset_ignored", "atom extraction",
       "the first atom of a run is taken from byte lane 0 of its beat instead of the run's start lane",
       ASM, "cur_ofs   = mid ? ofs_q : rd_lo;", "cur_ofs   = mid ? ofs_q : '0;"),
    # ---- output stream (cr_atom_assembler.sv, cr_atom_fifo.sv)
    _m("tlast_dropped", "dropping tlast",
       "m_axis_tlast is never set",
       FIFO, "assign m_axis_tlast  = q_last[q_rp];", "assign m_axis_tlast  = 1'b0;"),
    _m("tlast_every_batch", "dropping tlast",
       "tlast on the last atom of every batch, not only of the cube (COUNT_N ignored)",
       ASM, "&& (o_c == j_cc - 16'd1)\n                      && (o_n == j_cn - 16'd1);", "&& (o_c == j_cc - 16'd1);"),
    _m("tready_ignored_one_cycle", "ignoring tready for one cycle",
       "the first cycle of a tready stall still pops the output FIFO (registered tready also counts): one atom "
       "is lost per stall",
       FIFO, "assign pop           = m_axis_tvalid && m_axis_tready;",
       "logic tready_q;   // MUTANT\n"
       "  always_ff @(posedge clk) tready_q <= !rst && m_axis_tready;\n"
       "  assign pop           = m_axis_tvalid && (m_axis_tready || tready_q);"),
    _m("output_fifo_overflow", "ignoring tready",
       "atoms are written into the 2-entry output FIFO even when it is full (no back-pressure to RREADY)",
       ASM, "acc       = (q_cnt != 2'd2);", "acc       = 1'b1;"),
    _m("tuser_c_h_swapped", "wrong tuser field order",
       "tuser carries {n, h, c, w} instead of {n, c, h, w}",
       ASM, "assign o_user        = {o_n, o_c, o_h, o_w};", "assign o_user        = {o_n, o_h, o_c, o_w};"),
    # ---- fp16 (cr_fp16_scan.sv)
    _m("nan_flush_ignored", "NaN flush ignored",
       "CFG.NAN_TO_ZERO has no effect: NaN elements leave unchanged",
       FP16, "assign atom_out[16*e +: 16] = (el_nan[e] && j_n2z) ? 16'h0000 : atom_keep[16*e +: 16];",
       "assign atom_out[16*e +: 16] = atom_keep[16*e +: 16];"),
    _m("nan_flush_hits_inf", "NaN flush ignored",
       "CFG.NAN_TO_ZERO also flushes infinities (exponent 31 tested, mantissa ignored)",
       FP16, "(el_nan[e] && j_n2z) ? 16'h0000", "(el_exp31[e] && j_n2z) ? 16'h0000"),
    # ---- bus errors (cr_job_ctrl.sv, cr_atom_assembler.sv)
    _m("bus_error_not_stopping", "bus error not stopping the job",
       "an RRESP error sets ERR_BUS_* but the job goes on (later atoms are still sent)",
       CTRL, "stopped <= 1'b1;", "/* MUTANT: stopped not set */"),
    _m("decerr_not_an_error", "bus error not stopping the job",
       "only SLVERR counts as a bus error: DECERR beats are streamed as data and no error bit is set",
       ASM, "assign bus_err    = rd_valid && rd_resp[1];", "assign bus_err    = rd_valid && (rd_resp == 2'b10);"),
    # ---- AXI read engine (axi_rd_engine.sv)
    _m("burst_crosses_4kb", "a burst crossing 4 KB",
       "bursts are not split at 4 KB boundaries",
       ENG, "if (blen > BEATS_W'(to4k))      blen = BEATS_W'(to4k);", "/* MUTANT: no 4 KB split */"),
    _m("burst_4kb_one_beat_over", "a burst crossing 4 KB",
       "the 4 KB split is one beat late: a burst reaching a boundary takes one beat of the next page",
       ENG, "blen = BEATS_W'(to4k);", "blen = BEATS_W'(to4k) + BEATS_W'(1);"),
    _m("outstanding_limit_off_by_one", "an outstanding-read limit off by one",
       "MAX_OUTSTANDING+1 bursts in flight (the burst FIFO holds MAX_OUTSTANDING: its head entry is overwritten)",
       ENG, "(outs < CNT_W'(MAX_OUTSTANDING))", "(outs <= CNT_W'(MAX_OUTSTANDING))"),
    _m("burst_fifo_wraps_early", "an outstanding-read limit off by one",
       "the burst FIFO pointers wrap one entry early: with every slot in flight the newest burst overwrites the "
       "head's bookkeeping (its address, length and lanes)",
       ENG, "ptr_inc = (p == PTR_W'(MAX_OUTSTANDING - 1))", "ptr_inc = (p == PTR_W'(MAX_OUTSTANDING - 2))"),
    _m("outstanding_count_misses_overlap", "in-flight bookkeeping",
       "a burst returning in the cycle another is issued is not counted out: the in-flight count creeps up, "
       "reads in flight shrink and busy never falls",
       ENG, "outs <= outs + CNT_W'(issue) - CNT_W'(pop);",
       "outs <= issue ? outs + CNT_W'(1) : outs - CNT_W'(pop);"),
    # ---- descriptor validator (desc_validator.sv): one rule family each
    _m("val_align_base_skipped", "skipped validator rule: alignment",
       "ERR_ALIGN_BASE never set for power-of-two alignments",
       VAL, "mis_pow2[0] = (l_base & {32'd0, align_m1}) != 64'd0;", "mis_pow2[0] = 1'b0;"),
    _m("val_align_nvdla_min32_forgotten", "skipped validator rule: alignment",
       "NVDLA layouts: the 32-byte minimum alignment (Table 35) is forgotten, align = atom size",
       VAL, "align      = (nvdla_layout && l_atom < 32'd32) ? 32'd32 : (l_atom == 32'd0 ? 32'd1 : l_atom);",
       "align      = (l_atom == 32'd0 ? 32'd1 : l_atom);"),
    _m("val_overlap_ignores_atom", "skipped validator rule: overlap",
       "the overlap rule forgets the atom size: a stride one atom too short is accepted",
       VAL, "inner = {{(SW-32){1'b0}}, l_atom};", "inner = '0;"),
    _m("val_count_no_upper_bound", "skipped validator rule: count",
       "ERR_COUNT only for a zero count: counts above 65535 are accepted (and truncated to 16 bits)",
       VAL, "if (l_cnt[d] == 32'd0 || l_cnt[d] > 32'(CR_MAX_COUNT)) count_ok = 1'b0;",
       "if (l_cnt[d] == 32'd0) count_ok = 1'b0;"),
    _m("val_addr_overflow_ignores_base_hi", "skipped validator rule: addr overflow",
       "the overflow check uses only the low ADDR_W bits of the base: a base beyond 2**ADDR_W wraps",
       VAL, "top     = $signed({{(SW-64){1'b0}}, l_base}) + ext_pos;",
       "top     = $signed({{(SW-ADDR_W){1'b0}}, l_base[ADDR_W-1:0]}) + ext_pos;"),
    _m("val_addr_overflow_off_by_one", "skipped validator rule: addr overflow",
       "a cube whose last byte is the last address of the bus (base + extent == 2**ADDR_W) is refused",
       VAL, "ovf     = top > limit;", "ovf     = top >= limit;"),
    # ---- weight reader (issue 9): sparse expansion (wr_expander.sv), element size (weight_reader.sv), checks
    _m("wr_wmb_bit_order_reversed", "mask bit order reversed within a byte",
       "WMB bits are taken MSB first inside each byte (NVIDIA's v2 generator order), not LSB first",
       WEXP, "wmb_bits[8*b + i] = wmb_raw[8*b + i];", "wmb_bits[8*b + i] = wmb_raw[8*b + 7 - i];"),
    _m("wr_element_size_ignored", "element size ignored (one bit per byte)",
       "every element is taken as one byte: one mask bit per byte and group sizes in bytes, for int16/fp16 too",
       WTOP, "assign job_e2      = (j_elem == 32'd2);", "assign job_e2      = 1'b0;"),
    _m("wr_wgs_off_by_one_accepted", "WGS off by one",
       "the WGS check accepts an entry one element larger than popcount(WMB) x element bytes",
       WEXP, "(last_beat ? (grp_used + 32'(k) != grp_wgs)",
       "(last_beat ? (grp_used + 32'(k) != grp_wgs && grp_used + 32'(k) + (e2 ? 32'd2 : 32'd1) != grp_wgs)"),
    _m("wr_wgs_entry_skipped", "WGS off by one",
       "the WGS unpacker skips the first entry of every WGS beat: groups are checked against the next group's entry",
       WWGS, "assign j_abs  = EW'(lo >> 2) + j;", "assign j_abs  = EW'(lo >> 2) + j + EW'(j == '0 && lo == '0);"),
    _m("wr_last_partial_group_dropped", "last partial group dropped",
       "a shorter last kernel group is never sent: the job ends after the group before it",
       WEXP, "last_grp  = (grp == groups - 16'd1);",
       "last_grp  = (grp == groups - 16'd1) || (grp == groups - 16'd2 && last_elems != group_elems);"),
    _m("wr_group_boundary_ignored", "group boundary ignored in the bit stream",
       "the mask bits left in a group's last transfer are skipped, as if every group's WMB started a new transfer",
       WEXP, "m_take  = fire ? n : '0;", "m_take  = fire ? (last_beat ? ne : n) : '0;"),
    _m("wr_tlast_one_beat_early", "tlast on the wrong beat",
       "tlast on the last-but-one transfer of a group (and on its last)",
       WEXP, "assign o_last  = (grp_left <= 32'(ne));", "assign o_last  = (grp_left <= 32'(2) * 32'(ne));"),
    _m("wr_tlast_only_at_job_end", "tlast on the wrong beat",
       "tlast only on the last transfer of the job, not of every kernel group",
       WEXP, "assign o_last  = (grp_left <= 32'(ne));", "assign o_last  = (grp_left <= 32'(ne)) && last_grp;"),
    _m("wr_data_lane_offset_ignored", "sparse expansion",
       "a weight-data piece that starts inside a bus word is taken from byte lane 0",
       WEXP, "dat_bytes = dat_raw >> (8 * dat_lo);", "dat_bytes = dat_raw;"),
    _m("wr_overrun_unchecked", "run-time check skipped",
       "the WGS sum is never compared with WEIGHT_BYTES: a truncated compressed surface is not reported",
       WEXP, "assign ovr      = compressed && ent_valid && ({16'd0, cum} + 64'(ent) > 64'(weight_bytes));",
       "assign ovr      = 1'b0;"),
    _m("wr_val_wmb_size_lower_bound_skipped", "skipped validator rule: size",
       "ERR_SIZE_WMB only for sizes that are not 128-byte multiples: a WMB too small for the elements is accepted",
       WVAL, "|| (counts_ok && {29'd0, wmb_bytes, 3'd0} < dense_elems));", ");"),
)


# ---- pixel reader (issue 10): pixel_reader.sv, its pr_*.sv parts and its format table in accel_pkg.sv
PKG, PTOP, PCVT, PATOM, PUNP, PWALK, PVAL = ("accel_pkg.sv", "pixel_reader.sv", "pr_convert.sv", "pr_atom.sv",
                                             "pr_unpacker.sv", "pr_line_walker.sv", "pr_validator.sv")
PIXEL_MUTANTS: tuple[Mutant, ...] = (
    _m("pr_component_order_swapped", "component order swapped in one format",
       "T_A2B10G10R10 (code 20): R and B fields exchanged in the format table",
       PKG, "6'd20: pr_format = pr_entry(pr_ch(0, 0, 2), pr_ch(0, 10, 2), pr_ch(0, 20, 2),",
       "6'd20: pr_format = pr_entry(pr_ch(0, 20, 2), pr_ch(0, 10, 2), pr_ch(0, 0, 2),"),
    _m("pr_x_offset_in_bytes", "x offset counted in bytes instead of pixels",
       "the first ROI byte of plane 0 is X_OFFSET, not X_OFFSET*Bpp0",
       PTOP, "assign off0   = 5'(job.x_offset[4:0] << bpp0_l);", "assign off0   = job.x_offset[4:0];"),
    _m("pr_rounding_truncates", "rounding replaced by truncation in the converter",
       "the shift drops the half: abs(t) >> truncate instead of round half away from zero",
       PCVT, "half = (truncate == 6'd0) ? 64'd0 : (64'd1 << (truncate - 6'd1));", "half = 64'd0;"),
    _m("pr_int8_no_low_saturation", "saturation missing on one side",
       "int8 output: values below -128 wrap (low byte) instead of saturating",
       PCVT, "else if (y17 < -18'sd128) begin out = 16'h0080; sat = 1'b1; end", "/* MUTANT: no low clamp */"),
    _m("pr_plane1_stride_from_plane0", "plane 1 line stride taken from plane 0",
       "the plane-1 line address advances by STRIDE0",
       PWALK, "a1 <= a1 + AXI_ADDR_W'(stride1);", "a1 <= a1 + AXI_ADDR_W'(stride0);"),
    _m("pr_sign_override_ignored", "converter sign handling",
       "8-bit components are always zero-extended (PIXEL_SIGN_OVERRIDE ignored)",
       PCVT, "if (c8) x17 = sign ? {{11{value[7]}}, value[7:0]} : {11'd0, value[7:0]};",
       "if (c8) x17 = {11'd0, value[7:0]};"),
    _m("pr_fp16_ties_round_up", "int -> fp16 rounding",
       "int -> fp16 rounds ties up instead of to even",
       PCVT, "((rem == rhalf) && keep[0])", "(rem == rhalf)"),
    _m("pr_fp16_overflow_to_inf", "int -> fp16 saturation",
       "magnitudes >= 65520 become +-INF instead of +-65504",
       PCVT, "else if (m >= 17'd65520)   f16 = {neg, 15'h7BFF};", "else if (m >= 17'd65520)   f16 = {neg, 15'h7C00};"),
    _m("pr_mean_ignored", "converter offset",
       "MEAN_EN has no effect: every channel uses CVT_OFFSET",
       PATOM, ".offset    (job.mean_en ? job.mean[16*c +: 16] : job.cvt_offset),", ".offset    (job.cvt_offset),"),
    _m("pr_n444_y_position_not_reset", "N444 plane join",
       "the Y byte position restarts at 0 instead of X_OFFSET*Bpp0 on each new line",
       PUNP, "          p0pos <= 15'(off0);", "          p0pos <= '0;"),
    _m("pr_tlast_every_line", "dropping tlast",
       "tlast on the last pixel of every line",
       PUNP, "assign px_last  = px_eol && (y == height - 14'd1);", "assign px_last  = px_eol;"),
    _m("pr_bus_error_ignored_in_y_fill", "bus error not stopping the job",
       "an RRESP error on a plane-0 word of an N444 line is stored as Y data: no error, the job goes on",
       PUNP, "assign err_now  = rd_valid && rd_resp[1];", "assign err_now  = rd_valid && rd_resp[1] && !fill;"),
    _m("pr_val_fp16_precision_skipped", "skipped validator rule: precision",
       "an fp16 format with int8/int16 output is accepted",
       PVAL, "|| (known && fp16 && d.precision != 2'd2)", "/* MUTANT: fp16 to int accepted */"),
    _m("pr_val_stride_min1_skipped", "skipped validator rule: stride minimum",
       "a plane-1 stride shorter than its line is accepted",
       PVAL, "errors[PR_ERR_STRIDE_MIN1]   = geo_ok && two && d.stride1 < need1;",
       "errors[PR_ERR_STRIDE_MIN1]   = 1'b0;"),
    _m("pr_val_addr_overflow_plane1_ignored", "skipped validator rule: addr overflow",
       "only plane 0 is checked against the top of the address space",
       PVAL, "(top0 > limit || (two && top1 > limit))", "(top0 > limit)"),
)
MUTANTS = MUTANTS + PIXEL_MUTANTS


def apply_edits(text: str, edits: list[Edit], where: str) -> str:
    """``text`` with every edit applied; raises ValueError unless each old text occurs exactly once."""
    for e in edits:
        n = text.count(e.old)
        if n != 1:
            raise ValueError(f"{where}: the old text occurs {n} times in {e.file} (must be exactly once; the RTL "
                             f"changed? update the mutant): {e.old!r}")
        if e.old == e.new:
            raise ValueError(f"{where}: edit of {e.file} changes nothing: {e.old!r}")
        text = text.replace(e.old, e.new)
    return text


def check_table(mutants: tuple[Mutant, ...] = MUTANTS, rtl: Path = runner.RTL) -> None:
    """Every mutant applies cleanly to the current RTL (fail loudly before anything is simulated)."""
    names = [m.name for m in mutants]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"duplicate mutant names: {sorted(dup)}")
    for m in mutants:
        if not m.name.replace("_", "").isalnum() or m.name == "baseline":
            raise ValueError(f"bad mutant name {m.name!r}")
        for f in sorted(m.files):
            apply_edits((rtl / f).read_text(), [e for e in m.edits if e.file == f], m.name)


def make_copy(mutant: Mutant | None, dest: Path, rtl: Path = runner.RTL) -> Path:
    """A fresh copy of ``rtl`` in ``dest/rtl_stubs`` with the mutant's edits applied (none for the baseline)."""
    copy = dest / "rtl_stubs"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(rtl, copy, copy_function=shutil.copy)   # fresh mtimes
    for f in sorted(mutant.files if mutant else ()):
        p = copy / f
        p.write_text(apply_edits(p.read_text(), [e for e in mutant.edits if e.file == f], mutant.name))
    return copy


# ---------------------------------------------------------------------------------------------- suites
def suite_runs() -> list[testplan.SuiteRun]:
    """The runs of the testplan's ``mutants`` suite."""
    return list(testplan.load().suite("mutants").runs)


def runs_for(mutant: Mutant | None) -> list[testplan.SuiteRun]:
    """The runs whose build depends on the mutant's files (every run for the baseline)."""
    runs = suite_runs()
    if mutant is None:
        return runs
    return [e for e in runs if e.run.build.rtl is None or e.run.build.rtl & mutant.files]


@dataclass
class Outcome:
    name: str
    status: str = "BROKEN"             # PASS (baseline) | KILLED | SURVIVED | BROKEN
    family: str = ""
    bug: str = ""
    files: list[str] = field(default_factory=list)
    suites: dict = field(default_factory=dict)    # suite -> {"tests": n, "failed": [names], "messages": [..]}
    killed_by: list[str] = field(default_factory=list)
    tests: int = 0
    note: str = ""
    time_s: float = 0.0


# ---------------------------------------------------------------------------------------------- one mutant
def run_one(name: str, sim: str, seed: int, count: int, keep_builds: bool) -> Outcome:
    """Build and simulate one mutant (or ``baseline``) in this process."""
    mutant = None if name == "baseline" else next(m for m in MUTANTS if m.name == name)
    out = Outcome(name)
    if mutant:
        out.family, out.bug, out.files = mutant.family, mutant.bug, sorted(mutant.files)
    dest = out_dir(sim) / name
    copy = make_copy(mutant, dest)
    builds: dict[str, runner.Build] = {}
    build_dirs: list[Path] = []
    for entry in runs_for(mutant):
        run = entry.run
        key = run.build.name
        if key not in builds:
            config = f"mutant-{name}-{key}"
            stale = runner.SIM_BUILD / sim / f"{config}-{runner.worker()}"
            shutil.rmtree(stale, ignore_errors=True)        # never reuse an older mutant's build
            try:
                builds[key] = regress.build_run(sim, run, rtl_dir=copy, config=config)
            except (Exception, SystemExit) as exc:
                out.status, out.note = "BROKEN", f"build of {run.build.toplevel} failed: {exc}"
                return out
            build_dirs.append(builds[key].build_dir)
        tag = run.name.replace("/", "-")
        try:
            xml = runner.run(builds[key], run.module, seed, list(run.tests) or None, entry.environment(count), tag=tag)
        except (Exception, SystemExit) as exc:
            out.suites[run.name] = {"tests": 0, "failed": ["<simulation died>"], "messages": [str(exc)]}
            continue
        shutil.copy(xml, dest / f"{tag}.results.xml")
        rows = runner.read_results(xml)
        bad = [r for r in rows if not r.passed]
        out.suites[run.name] = {"tests": len(rows), "failed": [r.name for r in bad],
                                "messages": [r.message[:300] for r in bad]}
        if not rows:
            out.suites[run.name]["failed"] = ["<no test ran>"]
    out.tests = sum(s["tests"] for s in out.suites.values())
    out.killed_by = [f"{s}:{t}" for s, v in out.suites.items() for t in v["failed"]]
    if mutant is None:
        out.status = "FAIL" if out.killed_by else "PASS"
    else:
        out.status = "KILLED" if out.killed_by else "SURVIVED"
    if not keep_builds:
        for d in build_dirs:
            shutil.rmtree(d, ignore_errors=True)
    return out


def _spawn(name: str, args, log: Path, result: Path) -> Outcome:
    """Run one mutant in a child process group; stop the group on timeout."""
    cmd = [sys.executable, "-m", "tb.mutants", "--worker", name, "--sim", args.sim, "--seed", str(args.seed),
           "--count", str(args.count), "--result", str(result)] + (["--keep-builds"] if args.keep_builds else [])
    env = dict(os.environ, PYTHONPATH=str(runner.ROOT))
    for k in ("TESTCASE", "COCOTB_TEST_FILTER", "COCOTB_TESTCASE", "WAVES"):   # always the whole modules
        env.pop(k, None)
    result.unlink(missing_ok=True)
    t0 = time.monotonic()
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, cwd=runner.ROOT, env=env, stdout=f, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            proc.wait(timeout=args.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        except KeyboardInterrupt:
            _kill_group(proc)
            raise
        if timed_out:
            _kill_group(proc)
    dt = time.monotonic() - t0
    if timed_out:
        out = Outcome(name, "KILLED", killed_by=[f"<timeout after {args.timeout:.0f} s>"],
                      note="the test run did not finish (hang): counted as a failed run")
    elif result.exists():
        out = Outcome(**json.loads(result.read_text()))
    else:
        out = Outcome(name, "BROKEN", note=f"harness failed (exit {proc.returncode}), see {log}")
    if name != "baseline":
        m = next(m for m in MUTANTS if m.name == name)
        out.family, out.bug, out.files = m.family, m.bug, sorted(m.files)
    out.time_s = round(dt, 1)
    return out


def _kill_group(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


# ---------------------------------------------------------------------------------------------- driver
def _short(names: list[str], width: int) -> str:
    """``suite:test/param=..`` names grouped per suite and test: ``directed: bus_error(x6) registers; uvm: ..``."""
    groups: dict[str, dict[str, int]] = {}
    for n in names:
        suite, _, test = n.partition(":")
        tests = groups.setdefault(suite, {})
        key = test.split("/", 1)[0]
        tests[key] = tests.get(key, 0) + 1
    text = "; ".join(f"{s}: " + " ".join(t + (f"(x{k})" if k > 1 else "") for t, k in tests.items())
                     for s, tests in groups.items())
    return text if len(text) <= width else text[:width - 3] + "..."


def print_table(rows: list[Outcome]) -> None:
    print()
    print(f"{'mutant':34s} {'status':8s} {'failed':>9s} {'time':>7s}  killed by")
    print("-" * 140)
    for o in rows:
        text = _short(o.killed_by, 600) if o.killed_by else o.note
        lines = textwrap.wrap(text, 76) or [""]
        print(f"{o.name:34s} {o.status:8s} {len(o.killed_by):4d}/{o.tests:<4d} {o.time_s:6.0f}s  {lines[0]}")
        for line in lines[1:]:
            print(f"{'':66s}{line}")
    print("-" * 140)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make mutants", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default=os.getenv("SIM") or "verilator", choices=runner.SIMULATORS)
    ap.add_argument("--only", action="append", help="only this mutant (repeatable; the baseline always runs)")
    ap.add_argument("--seed", type=int, default=int(os.getenv("SEED") or 1))
    ap.add_argument("--count", type=int, default=int(os.getenv("COUNT") or 8),
                    help="random cubes per layout family in the pyuvm suite")
    ap.add_argument("--timeout", type=float, default=1200.0, help="wall-clock seconds per mutant")
    ap.add_argument("--keep-builds", action="store_true", help="keep the mutants' build directories")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:        # child: one mutant, result as JSON
        o = run_one(args.worker, args.sim, args.seed, args.count, args.keep_builds)
        Path(args.result).write_text(json.dumps(asdict(o), indent=1))
        return 0

    check_table()           # every substitution applies exactly once, before any simulation
    chosen = list(MUTANTS)
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTANTS}
        if unknown:
            ap.error(f"unknown mutant(s) {sorted(unknown)}; --list shows them")
        chosen = [m for m in MUTANTS if m.name in args.only]
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:34s} {', '.join(sorted(m.files)):18s} {m.bug}")
        return 0

    OUT = out_dir(args.sim)
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"mutants: SIM={args.sim} SEED={args.seed} COUNT={args.count}, {len(chosen)} mutants; logs in "
          f"{OUT.relative_to(runner.ROOT)}/<name>/", flush=True)
    t0 = time.monotonic()
    rows: list[Outcome] = []
    for name in ["baseline"] + [m.name for m in chosen]:
        (OUT / name).mkdir(parents=True, exist_ok=True)
        o = _spawn(name, args, OUT / name / "log.txt", OUT / name / "result.json")
        rows.append(o)
        print(f"  {name:34s} {o.status:8s} {o.time_s:6.0f}s  "
              + (_short(o.killed_by, 90) if o.killed_by else o.note[:90]), flush=True)
        if name == "baseline" and o.status != "PASS":
            print(f"mutants: the unmutated RTL does not pass on {args.sim} ({o.status}: "
                  f"{_short(o.killed_by, 200) or o.note}); see {OUT / name / 'log.txt'}")
            _write_report(args, rows, time.monotonic() - t0)
            return 1
    total = time.monotonic() - t0
    print_table(rows)
    muts = rows[1:]
    killed = sum(o.status == "KILLED" for o in muts)
    survived = [o.name for o in muts if o.status == "SURVIVED"]
    broken = [o.name for o in muts if o.status == "BROKEN"]
    print(f"mutants: {killed}/{len(muts)} killed, {len(survived)} survived, {len(broken)} broken "
          f"(SIM={args.sim} SEED={args.seed} COUNT={args.count}, {total / 60:.1f} min)")
    for n in survived:
        print(f"  SURVIVED {n}: {next(o.bug for o in muts if o.name == n)} -- either an equivalent mutant or a "
              f"gap in the tests")
    for n in broken:
        print(f"  BROKEN {n}: {next(o.note for o in muts if o.name == n)}")
    path = _write_report(args, rows, total)
    print(f"report: {path.relative_to(runner.ROOT)}")
    return 0 if not survived and not broken else 1


def _write_report(args, rows: list[Outcome], total: float) -> Path:
    muts = rows[1:]
    report = {
        "sim": args.sim, "seed": args.seed, "count": args.count, "total_time_s": round(total, 1),
        "runs": {e.run.name: e.run.module for e in suite_runs()},
        "baseline": asdict(rows[0]) if rows else None,
        "summary": {"mutants": len(muts), "killed": sum(o.status == "KILLED" for o in muts),
                    "survived": [o.name for o in muts if o.status == "SURVIVED"],
                    "broken": [o.name for o in muts if o.status == "BROKEN"]},
        "mutants": [asdict(o) for o in muts],
    }
    path = out_dir(args.sim) / "report.json"
    path.write_text(json.dumps(report, indent=1))
    return path


if __name__ == "__main__":
    sys.exit(main())

