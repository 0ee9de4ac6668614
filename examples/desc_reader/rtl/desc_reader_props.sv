// desc_reader_props: the platform's AXI4 read-master properties bound onto desc_reader's mem_ ports as its header
// declares the master: bus-word-aligned (ALIGNED, the default) INCR bursts of up to MAX_BEATS (4) full-width beats,
// one burst in flight, reset active low; widths of desc_reader's defaults, which the example's build keeps.
`include "axi4_read_master_bind.svh"
`DLA_PROPS_ROOT_BEGIN
`AXI4_READ_MASTER_BIND(desc_reader, mem_, clk_i, rst_ni, 1'b0, (.ADDR_W (36), .DATA_W (64), .MAX_OUTSTANDING (1), .MAX_BURST (4)))
`DLA_PROPS_ROOT_END
