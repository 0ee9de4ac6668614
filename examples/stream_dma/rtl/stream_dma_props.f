// stream_dma's property list (testplan.yaml builds.*.properties): the platform's AXI4 read-master property set from
// the installed package ($DLA_RTL), bound by port prefix in stream_dma_props.sv
-F $DLA_RTL/props/axi4_read_master.f
stream_dma_props.sv
