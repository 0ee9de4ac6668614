hdl_stall.sv
hdl_axi_mem.sv
hdl_stream_capture.sv
cube_reader_hdl.sv
