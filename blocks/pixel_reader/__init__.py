"""Testbench of the pixel reader (blocks/rtl/pixel_reader/pixel_reader.sv) on the shared platform."""
