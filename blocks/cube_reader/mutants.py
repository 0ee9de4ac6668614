"""The cube reader's mutants (``make mutants``): its address walk, output stream, fp16 scan and bus-error handling."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant

# the cube reader's parts (cube_reader.sv is the top: wiring) and the job controller every reader shares (its
# mutants run against the cube reader's tests)
CTRL, WALK, ASM, FIFO, FP16 = (
    "job_ctrl.sv",
    "cr_run_walker.sv",
    "cr_atom_assembler.sv",
    "atom_fifo.sv",
    "cr_fp16_scan.sv",
)

MUTANTS: tuple[Mutant, ...] = (
    # ---- address walk / run structure (cr_run_walker.sv; beat lanes in cr_atom_assembler.sv)
    mutant(
        "line_count_off_by_one",
        "off-by-one in the line count",
        "one line run fewer per surface when lines are not contiguous (COUNT_H-1 runs issued)",
        WALK,
        "e_h        <= m_h_q ? 16'd1 : j_ch;",
        "e_h        <= m_h_q ? 16'd1 : j_ch - 16'd1;",
    ),
    mutant(
        "packed_surface_one_line_short",
        "off-by-one in the line count",
        "a merged surface (contiguous lines) is sized COUNT_H-1 lines: the run is one line short",
        WALK,
        "s1_q    <= SZW'(j_ch) * s0;",
        "s1_q    <= SZW'(j_ch - 16'd1) * s0;",
    ),
    mutant(
        "surface_stride_wrong",
        "wrong surface stride",
        "the next surface starts at COUNT_H*STRIDE_H instead of STRIDE_C (surface gaps ignored)",
        WALK,
        "a_c <= a_c + AXI_ADDR_W'(j_sc);\n            a_h <= a_c + AXI_ADDR_W'(j_sc);",
        "a_c <= a_c + AXI_ADDR_W'(j_sh) * AXI_ADDR_W'(j_ch);\n"
        "            a_h <= a_c + AXI_ADDR_W'(j_sh) * AXI_ADDR_W'(j_ch);",
    ),
    mutant(
        "merge_lines_with_gap",
        "wrong line stride",
        "lines are merged into one run whenever STRIDE_H >= the line size (gaps read as atoms)",
        WALK,
        "m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) == s0);",
        "m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) >= s0);",
    ),
    mutant(
        "first_beat_offset_ignored",
        "atom extraction",
        "the first atom of a run is taken from byte lane 0 of its beat instead of the run's start lane",
        ASM,
        "cur_ofs   = mid ? ofs_q : rd_lo;",
        "cur_ofs   = mid ? ofs_q : '0;",
    ),
    # ---- output stream (cr_atom_assembler.sv, atom_fifo.sv)
    mutant(
        "tlast_dropped",
        "dropping tlast",
        "m_axis_tlast is never set",
        FIFO,
        "assign m_axis_tlast  = q_last[q_rp];",
        "assign m_axis_tlast  = 1'b0;",
    ),
    mutant(
        "tlast_every_batch",
        "dropping tlast",
        "tlast on the last atom of every batch, not only of the cube (COUNT_N ignored)",
        ASM,
        "&& (o_c == j_cc - 16'd1)\n                      && (o_n == j_cn - 16'd1);",
        "&& (o_c == j_cc - 16'd1);",
    ),
    mutant(
        "tready_ignored_one_cycle",
        "ignoring tready for one cycle",
        "the first cycle of a tready stall still pops the output FIFO (registered tready also counts): one atom "
        "is lost per stall",
        FIFO,
        "assign pop           = m_axis_tvalid && m_axis_tready;",
        "logic tready_q;   // MUTANT\n"
        "  always_ff @(posedge clk) tready_q <= !rst && m_axis_tready;\n"
        "  assign pop           = m_axis_tvalid && (m_axis_tready || tready_q);",
    ),
    mutant(
        "output_fifo_overflow",
        "ignoring tready",
        "atoms are written into the 2-entry output FIFO even when it is full (no back-pressure to RREADY)",
        ASM,
        "acc       = (q_cnt != 2'd2);",
        "acc       = 1'b1;",
    ),
    mutant(
        "tuser_c_h_swapped",
        "wrong tuser field order",
        "tuser carries {n, h, c, w} instead of {n, c, h, w}",
        ASM,
        "assign o_user        = {o_n, o_c, o_h, o_w};",
        "assign o_user        = {o_n, o_h, o_c, o_w};",
    ),
    # ---- fp16 (cr_fp16_scan.sv)
    mutant(
        "nan_flush_ignored",
        "NaN flush ignored",
        "CFG.NAN_TO_ZERO has no effect: NaN elements leave unchanged",
        FP16,
        "assign atom_out = atom_keep & ~flush;",
        "assign atom_out = atom_keep;",
    ),
    mutant(
        "nan_flush_hits_inf",
        "NaN flush ignored",
        "CFG.NAN_TO_ZERO also flushes infinities (exponent 31 tested, mantissa ignored)",
        FP16,
        "{16{el_nan[e] && j_n2z}}",
        "{16{el_exp31[e] && j_n2z}}",
    ),
    # ---- bus errors (job_ctrl.sv, cr_atom_assembler.sv)
    mutant(
        "bus_error_not_stopping",
        "bus error not stopping the job",
        "an RRESP error sets ERR_BUS_* but the job goes on (later atoms are still sent)",
        CTRL,
        "stopped <= 1'b1;",
        "/* MUTANT: stopped not set */",
    ),
    mutant(
        "decerr_not_an_error",
        "bus error not stopping the job",
        "only SLVERR counts as a bus error: DECERR beats are streamed as data and no error bit is set",
        ASM,
        "assign bus_err    = rd_valid && rd_resp[1];",
        "assign bus_err    = rd_valid && (rd_resp == 2'b10);",
    ),
)
