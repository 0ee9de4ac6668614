// pin_dma's property list (builds.pin_dma*.properties): the AXI4 read-master property set bound by port prefix
+incdir+$DLA_RTL/props
$DLA_RTL/props/axi4_read_master_props.sv
pin_dma_props.sv
