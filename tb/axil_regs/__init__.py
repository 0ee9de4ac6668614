"""The shared AXI4-Lite register block (rtl_stubs/common/axil_regs.sv): its mutants; its tests are every reader's
register tests (tb/register_check.py) and the formal set ``axil_regs``."""
