"""Mutants of NVIDIA's PDP read DMA (``make mutants``): bugs a user of the block would fear, as edits of a copy of
``$NVDLA_HW`` (NVIDIA's files are never touched; dlaverif/flow/mutants.py builds the copy and points NVDLA_HW at it).
Each must fail ``pdp_rdma/random`` (the testplan's ``mutants`` suite)."""

from __future__ import annotations

from dlaverif.flow.mutation import Mutant, mutant
from dlaverif.thirdparty import NVDLA_HW

IG = "vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_ig.v"
EG = "vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_eg.v"

MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "pdp_line_stride_plus_atom",
        "stride off by one",
        "the line stride is one atom longer than programmed: every line after a surface's first is read 32 bytes late",
        IG,
        "assign reg2dp_line_stride = {reg2dp_src_line_stride,5'd0};",
        "assign reg2dp_line_stride = {reg2dp_src_line_stride + 27'd1,5'd0};",
        NVDLA_HW,
    ),
    mutant(
        "pdp_surface_stride_minus_atom",
        "stride off by one",
        "the surface stride is one atom shorter than programmed: every surface after the first is read 32 bytes early",
        IG,
        "assign reg2dp_esurf_stride = {reg2dp_src_surface_stride,5'd0};",
        "assign reg2dp_esurf_stride = {reg2dp_src_surface_stride - 27'd1,5'd0};",
        NVDLA_HW,
    ),
    mutant(
        "pdp_request_size_plus_one",
        "size off by one",
        "each line's request asks for one atom more than the width (reads outside the cube, one word too many)",
        IG,
        "req_size = reg2dp_cube_in_width[12:0];//cfg_width;",
        "req_size = reg2dp_cube_in_width[12:0] + 13'd1;",
        NVDLA_HW,
    ),
    mutant(
        "pdp_surf_end_dropped",
        "flag dropped",
        "the end-of-surface flag is never set on the output words",
        EG,
        "assign dp_surf_end = is_surf_end;",
        "assign dp_surf_end = 1'b0;",
        NVDLA_HW,
    ),
    mutant(
        "pdp_mask_read_as_full",
        "mask misread",
        "every response is taken as two atoms: the unused half of an odd line's last response is output",
        EG,
        "assign       lat_rd_mask[1:0] =    lat_rd_pd[513:512];",
        "assign       lat_rd_mask[1:0] =    2'b11;",
        NVDLA_HW,
    ),
    mutant(
        "pdp_credit_lost_on_odd_atom",
        "credit lost",
        "no credit is returned for a response holding one atom (an odd line's last): the memory interface starves",
        EG,
        "assign dma_rd_cdt_lat_fifo_pop = lat_rd_pvld & lat_rd_prdy;",
        "assign dma_rd_cdt_lat_fifo_pop = lat_rd_pvld & lat_rd_prdy & lat_rd_mask[1];",
        NVDLA_HW,
    ),
)
