// stream_dma_props: the platform's AXI4 read-master properties bound onto stream_dma's m_axi_gmem_ ports, with its
// ID ports, as its header declares the master: bus-word-aligned INCR bursts of up to 8 beats (MAX_BURST), ARID 5 of
// 4 ID bits (AXI_ID, ID_W), no limit on the bursts outstanding (tracked up to 4096: a job's bursts run ahead of its
// data), reset active low. DATA_W: STREAM_DMA_DATA_W, which each build defines as its DATA_W (a bind cannot read a
// parameter of the design).
`include "axi4_read_master_bind.svh"
`DLA_PROPS_ROOT_BEGIN
`AXI4_READ_MASTER_BIND_ID(stream_dma, m_axi_gmem_, ap_clk, ap_rst_n, 1'b0, (.ADDR_W (32), .DATA_W (`STREAM_DMA_DATA_W), .ID_W (4), .ARID (4'd5), .MAX_OUTSTANDING (0), .TRACK (4096), .MAX_BURST (8)))
`DLA_PROPS_ROOT_END
