"""Testbench of the pixel reader (rtl_stubs/pixel_reader/pixel_reader.sv) on the shared platform."""
