#!/usr/bin/env bash
# make with the flow's own exit status: `dlaverif/flow/make_status.sh regress SUITE=nightly` runs `make regress
# SUITE=nightly` and exits with the status the flow chose (docs/regressions.md: 0 passed, 1 a test failed or did not
# run, 2 bad input, 3 the run folder is in use, 130 interrupted), which make itself turns into 2 for every failed
# recipe. The Makefile's sim, regress, report, mutants and formal recipes write their status to $MAKE_STATUS_FILE;
# a failure before them (make's own, a missing system package) keeps make's status. Nothing is written in the checkout.
set -u
status_file=$(mktemp "${TMPDIR:-/tmp}/make-status.XXXXXX") || exit 2
trap 'rm -f "$status_file"' EXIT
# Ctrl-C (SIGINT to the whole process group) reaches make and the flow, which stop cleanly (the flow says 130); this
# script runs make in the foreground, waits for it, and then exits with the status instead of dying with it.
interrupted=0
trap 'interrupted=1' INT TERM
MAKE_STATUS_FILE=$status_file make "$@"
made=$?
if [ -s "$status_file" ]; then
    exit "$(cat "$status_file")"
fi
if [ "$interrupted" = 1 ] && [ "$made" -ne 0 ]; then
    exit 130  # make stopped by the interrupt before the flow could say
fi
exit "$made"
