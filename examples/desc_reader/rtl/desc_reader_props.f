// desc_reader's property list (testplan.yaml builds.desc_reader.properties): the platform's AXI4 read-master
// property set from the installed package ($DLA_RTL), bound by port prefix in desc_reader_props.sv
-F $DLA_RTL/props/axi4_read_master.f
desc_reader_props.sv
