"""The shared AXI4-Lite register block (blocks/rtl/common/axil_regs.sv): its mutants; its tests are every reader's
register tests (dlaverif/platform/register_check.py) and the formal set ``axil_regs``."""
