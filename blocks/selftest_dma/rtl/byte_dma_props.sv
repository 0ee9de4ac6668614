// byte_dma_props: the AXI4 read-master properties (dlaverif/hdl/props/axi4_read_master_props.sv) bound onto byte_dma's
// rd_ ports as its header documents the master: any byte address (ALIGNED 0), single-beat INCR bursts (MAX_BURST 1,
// BURSTS INCR), full-width beats, no limit on bursts in flight declared (MAX_OUTSTANDING 0). Widths: byte_dma's
// defaults (DW 64, AW 32), which its builds keep. BYTE_DMA_ALIGNED (a build define) misdeclares the master as
// aligned: tests/sim/test_byte_dma.py checks that the build then fails with the property's message.
`include "axi4_read_master_bind.svh"
`ifndef BYTE_DMA_ALIGNED
`define BYTE_DMA_ALIGNED 1'b0
`endif
`DLA_PROPS_ROOT_BEGIN
/* verilator lint_off PINCONNECTEMPTY */
`AXI4_READ_MASTER_BIND(byte_dma, rd_, aclk, aresetn, 1'b0,
  (.ADDR_W (32), .DATA_W (64), .ID_W (1), .MAX_OUTSTANDING (0), .MAX_BURST (1), .ALIGNED (`BYTE_DMA_ALIGNED)))
/* verilator lint_on PINCONNECTEMPTY */
`DLA_PROPS_ROOT_END
