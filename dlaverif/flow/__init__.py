"""The flow: the tools that build and run the testbench (runner, ``make sim``, regressions and reports, the
testplan loader, the mutation engine, the doctor, the system packages), apart from the testbench library itself."""
