// pin_dma_props: the AXI4 read-master properties bound onto pin_dma's rd_ ports (clk_i, rst_i active high): what
// byte_dma's binding declares (blocks/selftest_dma/rtl/byte_dma_props.sv), the same master inside pin_dma.
`include "axi4_read_master_bind.svh"
`DLA_PROPS_ROOT_BEGIN
/* verilator lint_off PINCONNECTEMPTY */
`AXI4_READ_MASTER_BIND(pin_dma, rd_, clk_i, rst_i, 1'b1,
  (.ADDR_W (32), .DATA_W (64), .ID_W (1), .MAX_OUTSTANDING (0), .MAX_BURST (1), .ALIGNED (1'b0)))
/* verilator lint_on PINCONNECTEMPTY */
`DLA_PROPS_ROOT_END
