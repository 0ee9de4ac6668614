// What every reader compiles: the register package, the AXI4-Lite register block, the shared simple dual-port
// RAM (the engine's burst table, the weight reader's queues), the one AXI4 read engine and the reader shell
// around them (the job state machine, the job counters). The include folder: the port groups (axi_ports.svh,
// axi_rd_engine_ports.svh) that these files and every reader declare their ports with.
+incdir+.+$DLA_RTL/props
accel_csr_pkg.sv
accel_pkg.sv
param_contract.sv
axil_regs.sv
sdp_ram.sv
axi_rd_engine.sv
job_ctrl.sv
reader_counters.sv
reader_shell.sv
