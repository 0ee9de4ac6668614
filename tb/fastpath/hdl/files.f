hdl_stall.sv
hdl_axi_mem.sv
hdl_stream_capture.sv
reader_hdl.sv
