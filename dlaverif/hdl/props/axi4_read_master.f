// axi4_read_master.f: the AXI4 read-master property set as a project's property list includes it from the installed
// package (`-F $DLA_RTL/props/axi4_read_master.f`), followed by the project's binding file, which includes
// axi4_read_master_bind.svh from this folder and attaches the set by port prefix
+incdir+.
axi4_read_master_props.sv
