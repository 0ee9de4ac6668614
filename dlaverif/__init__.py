"""dlaverif: bit-exact reference models of the in-memory data formats of deep-learning accelerators, and a
cocotb/pyuvm platform that checks any AXI4 reader of them against the models.

* :mod:`dlaverif.models`: the formats (numpy only; ``python -m dlaverif.models``);
* :mod:`dlaverif.agents`, :mod:`dlaverif.checkers`: bus agents and bus checks;
* :mod:`dlaverif.platform`: what the platform knows of a DUT (the binding), the job protocol, scoreboard, tests;
* :mod:`dlaverif.fastpath`: the HDL-side memory and capture;
* :mod:`dlaverif.flow`: ``make sim``, regressions and reports, mutants, formal, lint, driven by a project's plan;
* ``dlaverif/hdl/``: HDL shipped as package data (the property sets a user binds, the fast path's HDL).

Importing it loads no project data: a project (this repository's ``blocks/``, or ``examples/*``) names its plan,
RTL and register data itself.
"""
