"""Waiting for Slurm jobs (``slurm.wait_for``): a job leaves the queue when squeue lists none of its tasks or no
longer knows it; a squeue that gives no answer (a busy controller) is asked again, and only a long silence ends
the wait, with one line. No cluster is needed: squeue's answers are played back."""

from __future__ import annotations

from typing import Iterator

import pytest

from dlaverif.executor import FAILED, OK, Record, Step
from dlaverif.flow.regression import slurm


def _replay(monkeypatch: pytest.MonkeyPatch, answers: list[tuple[int, str, str]]) -> list[list[str]]:
    """squeue's answers (return code, stdout, stderr) played back through the executor's records, in order."""
    calls: list[list[str]] = []
    it: Iterator[tuple[int, str, str]] = iter(answers)

    class FakeExecutor:
        def run(self, step: Step) -> Record:
            calls.append(list(step.command))
            rc, out, err = next(it)
            status = OK if rc == 0 else FAILED
            return Record(step.name, list(step.command), "", 0.0, 0.0, status, rc, None, None, None, output=out + err)

    monkeypatch.setattr(slurm, "Executor", FakeExecutor)
    monkeypatch.setattr(slurm, "POLL_S", 0.0)
    return calls


def test_in_queue_reads_listed_gone_and_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    _replay(
        monkeypatch,
        [
            (0, "12_1\n", ""),
            (0, "", ""),
            (1, "", "slurm_load_jobs error: Invalid job id specified"),
            (1, "", "slurm_load_jobs error: Socket timed out on send/recv operation"),
        ],
    )
    assert [slurm.in_queue("12") for _ in range(4)] == [True, False, False, None]


def test_a_busy_controller_does_not_end_the_wait_before_the_job_left(monkeypatch: pytest.MonkeyPatch) -> None:
    timeout = (1, "", "slurm_load_jobs error: Socket timed out on send/recv operation")
    calls = _replay(monkeypatch, [(0, "7\n", ""), timeout, timeout, (0, "7\n", ""), (0, "", "")])
    assert slurm.wait_for(["7"]) is None
    assert len(calls) == 5  # the two silent answers were asked again, not taken for "left"


def test_a_long_silence_ends_the_wait_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slurm, "SILENT_POLLS", 3)
    _replay(monkeypatch, [(1, "", "squeue: fatal: Could not establish a configuration source")] * 3)
    line = slurm.wait_for(["7"])
    assert line is not None and "\n" not in line
    assert line.startswith("slurm: squeue gave no answer 3 times in a row")
