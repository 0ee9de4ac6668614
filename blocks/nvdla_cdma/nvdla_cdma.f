// NVIDIA's convolution DMA (NV_NVDLA_cdma, nvdla/hw branch nvdlav1) with master's flop-array RAM wrappers
// (vmod/rams/fpga/model: the same ports as nvdlav1's synth wrappers, no latch models, so no --timing), compiled from a
// checkout of nvdla/hw named by $NVDLA_HW (defaults: make nvdla's pinned copy sim_build/thirdparty/nvdla-hw, then the
// shared copies beside the repository, ../shared/thirdparty/nvdla-cdma for these files; the root NVDLA_HW of blocks/pdp_rdma/plan.yaml).
// Paths as in that repository. NVIDIA's defines and the Verilator waivers are build options (blocks/plan.yaml,
// builds.nvdla_cdma).
+incdir+$NVDLA_HW/vmod/include
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_cdma.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_status.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_slcg.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_shared_buffer.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_cvt.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_CVT_cell.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_dma_mux.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_img.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_IMG_pack.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_IMG_sg.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_IMG_sg2pack_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_IMG_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_IMG_ctrl.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_wg.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_WG_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_dc.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_DC_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_wt.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_WT_wgs_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_WT_fifo.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_WT_sp_arb.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_WT_wrr_arb.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_regfile.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_dual_reg.v
$NVDLA_HW/vmod/nvdla/cdma/NV_NVDLA_CDMA_single_reg.v
$NVDLA_HW/vmod/rams/fpga/model/nv_ram_rws_16x256.v
$NVDLA_HW/vmod/rams/fpga/model/nv_ram_rws_64x10.v
$NVDLA_HW/vmod/rams/fpga/model/nv_ram_rwsp_128x11.v
$NVDLA_HW/vmod/rams/fpga/model/nv_ram_rwsp_128x6.v
$NVDLA_HW/vmod/rams/fpga/model/nv_ram_rwsp_32x32.v
$NVDLA_HW/vmod/vlibs/NV_CLK_gate_power.v
$NVDLA_HW/vmod/vlibs/CKLNQD12.v
$NVDLA_HW/vmod/vlibs/CKLNQD12PO4.v
$NVDLA_HW/vmod/vlibs/ScanShareSel_JTAG_reg_ext_cg.v
$NVDLA_HW/vmod/vlibs/SDFSNQD1.v
$NVDLA_HW/vmod/vlibs/SDFCNQD1.v
$NVDLA_HW/vmod/vlibs/SDFQD1.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_BUFFER.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SRC0.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SRC0_X.v
$NVDLA_HW/vmod/vlibs/NV_BLKBOX_SINK.v
$NVDLA_HW/vmod/vlibs/LNQD1PO4.v
$NVDLA_HW/vmod/vlibs/p_SDFCNQD1PO4.v
$NVDLA_HW/vmod/vlibs/sync2d_c_pp.v
$NVDLA_HW/vmod/vlibs/p_SSYNC2DO_C_PP.v
$NVDLA_HW/vmod/vlibs/AN2D4PO4.v
