# project.mk: the make targets of a project that uses the installed package (pip install 'dla-formats-verif[tb,flow]'),
# shipped with it so that no project keeps a copy. A project's Makefile is its own variables, then one include:
#
#   PYTHON ?= python3
#   include $(shell $(PYTHON) -c 'import dlaverif.flow as f, os; print(os.path.dirname(f.__file__))')/project.mk
#
# make sim       the plan's `sim` suite (SUITE= another suite, RUN= runs of it, TESTS= globs, TESTCASE=, SEED=, COUNT=,
#                WAVES=1, ASSERT=0, SIM=verilator|icarus): python -m dlaverif.flow.sim on TESTPLAN
# make regress   a suite, every (test, seed) in parallel, with its report (SEEDS=, SEED_LIST=, JOBS=, COVERAGE=0, ...)
# make report    merge regression folders or archives into one report (INPUTS=..., default the latest run)
# make mutants   the plan's mutant catalogue (mutants:) against its `mutants` suite (python -m dlaverif.flow.mutants;
#                MUTANT=<name>: that one only, MUTANT_JOBS=N: N at once); each mutant's log in sim_build/mutants/<sim>/<name>/log.txt
# make formal   the plan's formal: sets (python -m dlaverif.flow.formal; QUICK=1: the quick depths)
# make clean     remove SIM_BUILD
#
# Every variable the flow reads is passed to it when it has a value, whether set on the command line (make exports
# those itself) or in the Makefile (FLOW_VARS, exported below): a variable the flow reads and make does not pass would
# silently run something else. An empty one is not exported (to the flow, ASSERT= empty means ASSERT=0). TESTPLAN
# defaults to the testplan.yaml beside the Makefile, SIM_BUILD to its sim_build/.
PYTHON    ?= python3
SIM       ?= verilator
TESTPLAN  ?= $(CURDIR)/testplan.yaml
SIM_BUILD ?= $(CURDIR)/sim_build
FLOW_VARS := TESTPLAN SIM_BUILD SIM SUITE RUN TESTS TESTCASE SEED COUNT COUNT_SCALE WAVES ASSERT MISMATCH_MAPS RTL \
             CONFIG_SEED BUILD_TIMEOUT SEEDS SEED_LIST JOBS SHARD SHARDS LAUNCHER WAIT COVERAGE REPORT HISTORY \
             JOB_TIMEOUT RESUME RERUN REPORT_TIMEOUT SIM_TIMEOUT INPUTS
$(foreach v,$(FLOW_VARS),$(if $(value $(v)),$(eval export $(v))))
.PHONY: sim regress report mutants formal clean

sim:
	$(PYTHON) -m dlaverif.flow.sim --sim $(SIM) $(if $(SUITE),--suite $(SUITE))

regress:
	$(PYTHON) -m dlaverif.flow.regression run $(if $(JOBS),--jobs $(JOBS))

report:
	$(PYTHON) -m dlaverif.flow.regression report $(INPUTS)

mutants:
	$(PYTHON) -m dlaverif.flow.mutants --sim $(SIM) $(if $(MUTANT),--only $(MUTANT)) $(if $(MUTANT_JOBS),--jobs $(MUTANT_JOBS))

formal:
	$(PYTHON) -m dlaverif.flow.formal $(if $(QUICK),--quick)

clean:
	rm -rf $(SIM_BUILD)
