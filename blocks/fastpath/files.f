$DLA_RTL/fastpath/hdl_stall.sv
$DLA_RTL/fastpath/hdl_axi_mem.sv
$DLA_RTL/fastpath/hdl_stream_capture.sv
reader_hdl.sv
