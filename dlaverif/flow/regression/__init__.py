"""Regressions over the testplan (``make regress``, ``make report``): jobs, launchers, merged coverage, reports.

- :mod:`.jobs`      the (run, test, seed) pairs of a suite and their deterministic shards
- :mod:`.execute`   one build per plan build, one run folder per job, the local (process pool) launcher
- :mod:`.slurm`     the Slurm launcher (a job array of shards plus a merge job)
- :mod:`.collect`   reads run folders, shard folders and archives back into job records
- :mod:`.fcov`      functional coverage merged with cocotb-coverage, with the plan's goals and exclusions
- :mod:`.codecov`   Verilator code coverage merged with ``verilator_coverage``, lcov data and ``genhtml``
- :mod:`.report`    JUnit XML, ``summary.md``, ``results.json`` and ``index.html`` (Jinja2)
"""
