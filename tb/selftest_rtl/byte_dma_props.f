// byte_dma's property list (builds.byte_dma.properties): the AXI4 read-master property set bound by port prefix
+incdir+../../rtl_stubs/props+../../rtl_stubs/common
../../rtl_stubs/props/axi4_read_master_props.sv
byte_dma_props.sv
