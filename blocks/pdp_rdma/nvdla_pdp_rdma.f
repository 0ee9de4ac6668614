// NVIDIA's PDP read DMA (NV_NVDLA_PDP_rdma, nvdla/hw branch nvdlav1), compiled from a checkout of nvdla/hw named by
// $NVDLA_HW (defaults: make nvdla's pinned copy sim_build/thirdparty/nvdla-hw, then the shared copy
// ../shared/thirdparty/nvdla-pdp-rdma beside the repository; the root NVDLA_HW of blocks/pdp_rdma/plan.yaml).
// Paths as in that repository. NVIDIA's defines and the Verilator waivers are build options (blocks/plan.yaml,
// builds.nvdla_pdp_rdma); VERILINT drops NV_CLK_gate_power's nv_assert_no_x instances.
+incdir+$NVDLA_HW/vmod/include
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_rdma.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_cq.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_eg.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_ig.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_reg.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_REG_dual.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_RDMA_REG_single.v
$NVDLA_HW/vmod/nvdla/pdp/NV_NVDLA_PDP_slcg.v
$NVDLA_HW/vmod/rams/synth/nv_ram_rwsp_61x514.v
$NVDLA_HW/vmod/rams/synth/nv_ram_rwsp_61x514_logic.v
$NVDLA_HW/vmod/rams/model/RAMPDP_64X226_GL_M1_D2.v
$NVDLA_HW/vmod/rams/model/RAMPDP_64X288_GL_M1_D2.v
$NVDLA_HW/vmod/vlibs/p_SDFCNQD1PO4.v
$NVDLA_HW/vmod/vlibs/p_SSYNC2DO_C_PP.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SINK.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SRC0_X.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SRC0.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_BUFFER.v
$NVDLA_HW/vmod/vlibs/ScanShareSel_JTAG_reg_ext_cg.v
$NVDLA_HW/vmod/vlibs/AN2D4PO4.v
$NVDLA_HW/vmod/vlibs/NV_CLK_gate_power.v
$NVDLA_HW/vmod/vlibs/CKLNQD12.v
$NVDLA_HW/vmod/vlibs/CKLNQD12PO4.v
$NVDLA_HW/vmod/vlibs/SDFQD1.v
$NVDLA_HW/vmod/vlibs/SDFSNQD1.v
$NVDLA_HW/vmod/vlibs/LNQD1PO4.v
$NVDLA_HW/vmod/vlibs/SDFCNQD1.v
$NVDLA_HW/vmod/vlibs/sync2d_c_pp.v
