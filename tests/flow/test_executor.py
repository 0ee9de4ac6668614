"""The job executor (dlaverif/executor.py) on small fake commands (Python scripts and ``sleep``, no simulator): a
timeout ends the whole group, a stopped process and a grandchild included; a step dies with its orchestrator, also
when the orchestrator is SIGKILLed; SIGHUP to the orchestrator is SIGTERM; a leftover group is found by its id and
start time and ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dlaverif import executor
from dlaverif.executor import Executor, Step

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie runs nothing: it only waits for its parent to collect it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def gone_within(pids: list[int], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.02)
    return not any(alive(p) for p in pids)


def wait_for(path: Path, lines: int = 1, seconds: float = 10.0) -> list[str]:
    """The first ``lines`` lines of ``path`` once it has them."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.is_file() and len(got := path.read_text().splitlines()) >= lines:
            return got
        time.sleep(0.02)
    raise AssertionError(f"{path} never got {lines} line(s)")


def family(pids: Path) -> str:
    """A step that starts a grandchild (``sleep 300``, the simulator of a job) and a child that stops itself
    (SIGSTOP), writes their pids and its own to ``pids``, then stops itself too."""
    return textwrap.dedent(
        f"""
        import os, signal, subprocess, sys
        g = subprocess.Popen(["sleep", "300"])
        s = subprocess.Popen([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}}\\n{{g.pid}}\\n{{s.pid}}\\n")
        os.kill(os.getpid(), signal.SIGSTOP)
        """
    )


def test_a_timeout_ends_the_whole_group_a_grandchild_and_a_stopped_child_included(tmp_path):
    pids = tmp_path / "pids"
    log = tmp_path / "step.log"
    t0 = time.monotonic()
    rec = Executor(grace_s=5.0).run(Step("fake build", [sys.executable, "-c", family(pids)], 1.0, "LIMIT", log=log))
    took = time.monotonic() - t0
    me, grandchild, stopped = (int(x) for x in pids.read_text().split())
    assert rec.status == executor.TIMEOUT
    assert rec.line() == "fake build: timeout: still running after 1s (LIMIT), process group killed"
    assert rec.returncode == -signal.SIGTERM  # the guard ends as the command ended: by the SIGTERM
    assert 1.0 <= took < 4.0  # the stopped step acted on SIGTERM at once: SIGCONT came with it
    assert gone_within([me, grandchild, stopped], 2.0)
    assert (rec.log, rec.cwd, rec.command[0]) == (str(log), os.getcwd(), sys.executable)
    assert rec.start <= rec.end and rec.pgid is not None


def test_a_group_that_ignores_sigterm_is_killed_after_the_grace(tmp_path):
    script = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"
    t0 = time.monotonic()
    rec = Executor(grace_s=1.0).run(Step("stubborn", [sys.executable, "-c", script], 0.5, log=tmp_path / "log"))
    assert rec.status == executor.TIMEOUT and rec.returncode == -signal.SIGKILL
    assert 1.5 <= time.monotonic() - t0 < 5.0


def test_exit_codes_signals_and_output_are_recorded_as_the_command_ended(tmp_path):
    ex = Executor()
    ok = ex.run(Step("ok", [sys.executable, "-c", "print('hello')"], 30, capture=True))
    bad = ex.run(Step("bad", [sys.executable, "-c", "raise SystemExit(3)"], 30))
    segv = ex.run(Step("segv", [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], 30))
    missing = ex.run(Step("missing", ["/nonexistent/tool"], 30, capture=True))
    assert (ok.status, ok.returncode, ok.output) == (executor.OK, 0, "hello\n")
    assert (bad.status, bad.returncode) == (executor.FAILED, 3)
    assert (segv.status, segv.returncode) == (executor.FAILED, -signal.SIGSEGV)
    assert (missing.status, missing.returncode) == (executor.FAILED, 127)
    assert missing.output.startswith("executor: cannot run /nonexistent/tool:")
    with pytest.raises(subprocess.CalledProcessError):
        executor.check(bad)
    stuck = ex.run(Step("merge", ["sleep", "30"], 0.3, "REPORT_TIMEOUT"))
    with pytest.raises(executor.StepTimeout, match=r"^merge: timeout: still running after 0s \(REPORT_TIMEOUT\)"):
        executor.check(stuck)


def test_steps_run_so_many_at_a_time_in_order_and_stop_starts_no_more(tmp_path):
    ex = Executor()
    stamp = "import sys, time; open(sys.argv[1], 'w').write(str(time.time())); time.sleep(0.5)"
    steps = [Step(f"s{i}", [sys.executable, "-c", stamp, str(tmp_path / f"s{i}")], 30) for i in range(4)]
    seen: list[int] = []
    recs = ex.run_all(steps, 2, lambda i, r: seen.append(i))
    assert [r.name for r in recs] == ["s0", "s1", "s2", "s3"] and sorted(seen) == [0, 1, 2, 3]
    starts = [float((tmp_path / f"s{i}").read_text()) for i in range(4)]
    assert max(starts[:2]) < min(starts[2:])  # two at a time: the last two waited for the first two

    ex = Executor()
    ex.stop()
    recs = ex.run_all([Step("never", ["sleep", "30"], 30, prepare=lambda: (tmp_path / "prepared").touch())])
    assert recs[0].status == executor.NOT_STARTED and not (tmp_path / "prepared").exists()


ORCHESTRATOR = """
import sys, time
from pathlib import Path
from dlaverif.executor import Executor, Step
ex = Executor(registry=Path(sys.argv[2]))
step = Step("job", [sys.executable, "-c", sys.argv[1]], 300)
if sys.argv[3] == "signals":
    with ex.signals() as received:
        rec = ex.run(step)
    print(rec.status, rec.returncode, received, flush=True)
else:
    ex.run(step)
"""


def orchestrator(tmp_path: Path, script: str, mode: str) -> subprocess.Popen:
    """A small orchestrator (another Python process) that runs ``script`` through the executor."""
    return subprocess.Popen(
        [sys.executable, "-c", ORCHESTRATOR, script, str(tmp_path / "registry.jsonl"), mode],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )


def test_a_step_and_its_children_die_when_the_orchestrator_is_sigkilled(tmp_path):
    pids = tmp_path / "pids"
    script = (
        "import os, subprocess, time\n"
        "g = subprocess.Popen(['sleep', '300'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}}\\n{{g.pid}}\\n')\n"
        "time.sleep(300)"
    )
    orch = orchestrator(tmp_path, script, "plain")
    me, sleep = (int(x) for x in wait_for(pids, 2))
    assert alive(me) and alive(sleep)
    orch.kill()  # SIGKILL, as the OOM killer sends it: the orchestrator does nothing more
    orch.wait()
    assert gone_within([me, sleep], 2.0)


def test_a_plain_sleep_dies_with_its_sigkilled_orchestrator(tmp_path):
    orch = orchestrator(tmp_path, "import os; os.execvp('sleep', ['sleep', '300'])", "plain")
    pgid = int(json.loads(wait_for(tmp_path / "registry.jsonl")[0])["pgid"])
    end = time.monotonic() + 5
    while len(executor.group_members(pgid)) < 2 and time.monotonic() < end:  # the guard and the sleep
        time.sleep(0.02)
    members = executor.group_members(pgid)
    assert len(members) == 2
    orch.kill()
    orch.wait()
    assert gone_within(members, 2.0)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sighup_to_the_orchestrator_stops_its_steps_as_sigterm_does(tmp_path, sig):
    pids = tmp_path / "pids"
    orch = orchestrator(tmp_path, family(pids), "signals")
    me, grandchild, stopped = (int(x) for x in wait_for(pids, 3))
    orch.send_signal(sig)
    out, _ = orch.communicate(timeout=30)
    assert orch.returncode == 0  # it handled the signal: stopped its step and went on
    assert out.split() == ["killed", str(-signal.SIGTERM), f"[{int(sig)}]"]
    assert gone_within([me, grandchild, stopped], 2.0)


def test_a_leftover_group_is_ended_by_its_id_and_start_time_and_a_reused_pid_is_left_alone(tmp_path):
    stopped = subprocess.Popen(
        [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"], start_new_session=True
    )
    other = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        registry = tmp_path / "registry.jsonl"
        start = executor.start_ticks(stopped.pid)
        lines = [
            {"name": "orphan", "pgid": stopped.pid, "start": start},
            {"name": "reused", "pgid": other.pid, "start": (executor.start_ticks(other.pid) or 0) - 1},
        ]
        registry.write_text("".join(json.dumps(x) + "\n" for x in lines) + '{"cut": ')
        ended = executor.stop_leftovers(registry)
        assert [e["name"] for e in ended] == ["orphan"]
        assert stopped.wait(5) == -signal.SIGKILL
        assert other.poll() is None  # the same pid with another start time is another process: not touched
    finally:
        other.kill()
        other.wait()
        stopped.kill()
        stopped.wait()


def test_the_identity_of_a_process_tells_it_from_a_later_one_with_the_same_pid():
    me = executor.Identity.me()
    assert me.alive() is True
    assert executor.Identity(me.pid, (me.start or 0) + 1, me.host).alive() is False
    assert executor.Identity(me.pid, me.start, "another-host").alive() is None
    p = subprocess.Popen(["true"])
    p.wait()
    assert executor.Identity(p.pid, me.start, me.host).alive() is False


def test_a_process_inside_a_step_knows_it(tmp_path):
    assert not executor.inside_step()  # pytest was not started by an executor
    probe = [sys.executable, "-c", "from dlaverif import executor; print(executor.inside_step())"]
    rec = Executor().run(Step("probe", probe, 30, capture=True, env={**os.environ, "PYTHONPATH": str(ROOT)}))
    assert rec.output.strip() == "True"


class FakeRunner:
    """What dlaverif.flow.runner.limited patches: a cocotb_tools runner whose build executes its commands."""

    env = dict(os.environ)

    def _execute_cmds(self, cmds: list[list[str]], cwd: Path, stdout: object = None) -> None:
        raise AssertionError("ran without the executor")

    def build(self, cmd: list[str], cwd: Path) -> None:
        self._execute_cmds([cmd], cwd)


def test_a_stuck_build_command_of_make_sim_ends_as_a_timeout_in_one_line(tmp_path):
    from dlaverif.flow import runner

    fake = FakeRunner()
    stuck = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"]  # a stopped compiler
    t0 = time.monotonic()
    with pytest.raises(RuntimeError) as caught, runner.limited(fake, "build verilator/x", 1.0):
        fake.build(stuck, tmp_path)
    assert time.monotonic() - t0 < 1.0 + executor.KILL_GRACE_S
    line = "build verilator/x: timeout: still running after 1s (BUILD_TIMEOUT), process group killed"
    assert str(caught.value) == line
    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    with pytest.raises(RuntimeError, match="^Command failed with return code: 3$"):
        with runner.limited(fake, "build verilator/x", 30.0):
            fake.build(failing, tmp_path)
    with pytest.raises(AssertionError, match="ran without the executor"):  # after the block: the runner's own again
        fake.build(failing, tmp_path)


def test_a_mutant_past_its_timeout_is_killed_and_one_that_left_no_result_is_broken(tmp_path):
    from dlaverif.flow import mutants

    log, result = tmp_path / "log.txt", tmp_path / "result.json"
    hung = Executor().run(Step("mutant baseline", ["sleep", "30"], 1.0, "--timeout", log=log))
    o = mutants._outcome("baseline", hung, log, result)
    assert (o.status, o.killed_by) == ("KILLED", ["<timeout after 1 s>"])
    died = Executor().run(Step("mutant baseline", [sys.executable, "-c", "raise SystemExit(1)"], 30.0, log=log))
    o = mutants._outcome("baseline", died, log, result)
    assert (o.status, o.note) == ("BROKEN", f"harness failed (exit 1), see {log}")
