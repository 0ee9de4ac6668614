"""``make nvdla`` (dlaverif/flow/fetchroot.py over dlaverif/thirdparty/fetch.py) and a checkout without NVIDIA's files.

A local git repository built from NVIDIA's files (same relative paths, one commit per branch of the lock) stands in
for github.com/nvdla/hw, which this machine cannot reach: the fetch is pointed at it (``--url`` or ``NVDLA_HW_URL``)
with a copy of the lock whose commits are the stand-in's. Every expected digest is computed here with hashlib over
the source files, never taken from the lock it checks. A copy of this checkout in a folder with no sibling
``shared/`` and no ``NVDLA_HW`` shows the tests that need NVIDIA's files skipped with the one line saying how to get
them, and run once ``make nvdla`` has put the files into the copy."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from dlaverif import thirdparty
from dlaverif.flow import fetchroot, project, testplan
from dlaverif.thirdparty import fetch

#: the plan's root of NVIDIA's files (blocks/pdp_rdma/plan.yaml): its lock, its defaults
NV_ROOT = testplan.load().roots[thirdparty.NVDLA_HW]
LOCK = project.ROOT / NV_ROOT.lock
URL_VAR = fetchroot.url_var(thirdparty.NVDLA_HW)

#: the commits the shared exports come from (their READMEs): nvdla/hw nvdlav1, and master for spec/ and rams/fpga/
NVDLAV1 = "8e06b1b9d85aab65b40d43d08eec5ea4681ff715"
MASTER = "1a65f1f5b48268accaa47c95f95c2601918be095"
#: tests that need NVIDIA's files and compute no simulation: what the copy of the checkout runs
NEEDING = [
    "tests/sim/test_lint.py::test_make_lint_covers_every_module_with_and_without_assertions_and_each_foreign_build_by_its_top",
    "tests/sim/test_testplan.py::test_a_build_by_file_list_depends_on_that_lists_files_and_carries_its_options",
]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git(repo: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def stand_in(root: Path, files: dict[str, Path], changed: str = "", lock: dict | None = None) -> tuple[Path, Path]:
    """A git repository at ``root/hw`` with NVIDIA's ``files`` (nvdlav1's on branch nvdlav1, then master's on branch
    master; ``changed``: that file gets one more byte) and a copy of the lock (default: the repository's) naming its
    two commits; returns both."""
    repo = root / "hw"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "nvdlav1")
    commits = {}
    for branch, pinned in (("nvdlav1", NVDLAV1), ("master", MASTER)):
        if branch == "master":
            git(repo, "checkout", "-q", "-b", "master")
        for rel, src in files.items():
            if rel.startswith(("spec/", "vmod/rams/fpga/")) == (branch == "master"):
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                (repo / rel).write_bytes(src.read_bytes() + (b"\n" if rel == changed else b""))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", branch)
        commits[pinned] = git(repo, "rev-parse", "HEAD")
    lock = lock or json.loads(LOCK.read_text())
    for pin in lock["files"].values():
        pin["commit"] = commits[pin["commit"]]
    path = root / "lock.json"
    path.write_text(json.dumps(lock))
    return repo, path


def test_the_lock_pins_every_file_of_the_exports_at_its_commit_with_its_digest(nvdla_files):
    lock = json.loads(LOCK.read_text())
    assert lock["repository"] == "https://github.com/nvdla/hw" and lock["licence"] == "LICENSE"
    assert set(lock["files"]) == set(nvdla_files) and "LICENSE" in lock["files"]
    for rel, pin in lock["files"].items():
        assert pin["sha256"] == sha256(nvdla_files[rel]), rel
        master = rel.startswith("spec/") or rel.startswith("vmod/rams/fpga/")
        assert (pin["branch"], pin["commit"]) == (("master", MASTER) if master else ("nvdlav1", NVDLAV1)), rel
    for block, listed in lock["blocks"].items():  # every file under vmod/ and spec/ of an export, and its licence
        folder = next((project.ROOT / d for d in NV_ROOT.defaults if Path(d).name == block), None)
        if folder is not None and folder.is_dir():
            walked = {p.relative_to(folder).as_posix() for d in ("vmod", "spec") for p in (folder / d).rglob("*")}
            assert set(listed) == {w for w in walked if (folder / w).is_file()} | {"LICENSE"}, block


def test_the_fetch_takes_the_pinned_commits_from_git_and_checks_every_file(tmp_path, nvdla_files, monkeypatch, capsys):
    repo, lock = stand_in(tmp_path, nvdla_files)
    dest = tmp_path / "out" / "nvdla-hw"
    assert fetch.main(["--dest", str(dest), "--lock", str(lock), "--url", str(repo)]) == 0
    said = capsys.readouterr().out
    assert f"{len(nvdla_files)} files checked" in said and str(repo) in said, said
    got = {p.relative_to(dest).as_posix(): sha256(p) for p in dest.rglob("*") if p.is_file()}
    assert got == {rel: sha256(src) for rel, src in nvdla_files.items()}
    assert [p.name for p in dest.parent.iterdir()] == ["nvdla-hw"]  # no temporary folder left
    assert fetch.main(["--dest", str(dest), "--lock", str(lock), "--url", str(repo)]) == 0
    assert "is up to date" in capsys.readouterr().out


def test_a_file_that_differs_from_its_pin_is_refused_and_nothing_is_written(tmp_path, nvdla_files, capsys):
    changed = "vmod/nvdla/pdp/NV_NVDLA_PDP_rdma.v"
    repo, lock = stand_in(tmp_path, nvdla_files, changed=changed)
    dest = tmp_path / "out" / "nvdla-hw"
    rc = fetch.main(["--dest", str(dest), "--lock", str(lock), "--url", str(repo)])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.splitlines()) == 1, err
    bad = hashlib.sha256(nvdla_files[changed].read_bytes() + b"\n").hexdigest()
    assert changed in err and bad in err and sha256(nvdla_files[changed]) in err, err
    assert not dest.exists() and list(dest.parent.iterdir()) == []


def test_the_fetch_and_its_refusal_with_files_of_our_own_where_nvidias_are_absent(tmp_path, capsys):
    """The same fetch over a small lock of made-up files: it runs on any machine, NVIDIA's files or not."""
    src = tmp_path / "src"
    files = {"LICENSE": b"licence\n", "vmod/a/x.v": b"module x;\nendmodule\n", "spec/manual/X.rdl": b"addrmap {};\n"}
    for rel, data in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(data)
    pins = {
        rel: {"commit": MASTER if rel.startswith("spec/") else NVDLAV1, "sha256": hashlib.sha256(data).hexdigest()}
        for rel, data in files.items()
    }
    lock = {"repository": "https://nvdla-hw.invalid/hw", "licence": "LICENSE", "blocks": {}, "files": pins}
    paths = {rel: src / rel for rel in files}
    repo, lock_path = stand_in(tmp_path / "good", paths, lock=json.loads(json.dumps(lock)))
    dest = tmp_path / "out" / "nvdla-hw"
    args = ["--dest", str(dest), "--lock", str(lock_path), "--url", str(repo)]
    assert fetch.main(args) == 0
    assert {p.relative_to(dest).as_posix(): p.read_bytes() for p in dest.rglob("*") if p.is_file()} == files
    repo, lock_path = stand_in(tmp_path / "bad", paths, changed="vmod/a/x.v", lock=json.loads(json.dumps(lock)))
    other = tmp_path / "out2" / "nvdla-hw"
    assert fetch.main(["--dest", str(other), "--lock", str(lock_path), "--url", str(repo)]) == 2
    err = capsys.readouterr().err
    bad = hashlib.sha256(files["vmod/a/x.v"] + b"\n").hexdigest()
    assert len(err.splitlines()) == 1 and "vmod/a/x.v" in err and bad in err and pins["vmod/a/x.v"]["sha256"] in err
    assert not other.exists() and list(other.parent.iterdir()) == []


def test_a_destination_holding_a_changed_file_is_never_overwritten(tmp_path, nvdla_files, capsys):
    repo, lock = stand_in(tmp_path, nvdla_files)
    dest = tmp_path / "nvdla-hw"
    args = ["--dest", str(dest), "--lock", str(lock), "--url", str(repo)]
    assert fetch.main(args) == 0
    mine = dest / "vmod" / "vlibs" / "SDFQD1.v"
    mine.write_text("// my edit\n")
    (dest / "LICENSE").unlink()  # incomplete too: still refused, the edit is kept
    assert fetch.main(args) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and str(mine) in err and "was changed" in err, err
    assert mine.read_text() == "// my edit\n"


def test_without_network_the_fetch_fails_in_one_line_and_writes_nothing(tmp_path, capsys):
    dest = tmp_path / "out" / "nvdla-hw"
    rc = fetch.main(["--dest", str(dest), "--lock", str(LOCK), "--url", "https://nvdla-hw.invalid/hw"])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.splitlines()) == 1 and "cannot fetch https://nvdla-hw.invalid/hw" in err, err
    assert fetch.ANOTHER_WAY in err and not dest.exists() and list(dest.parent.iterdir()) == []


def _stopping_git(bin_dir: Path, pids: Path) -> None:
    """A ``git`` first on PATH that runs the real one, except ``git fetch``: that one starts a child (the transport
    helper of a real fetch), writes both pids to ``pids`` and stops itself (SIGSTOP), as a fetch stuck on a network
    that never answers."""
    real = shutil.which("git")
    bin_dir.mkdir()
    (bin_dir / "git").write_text(
        f"""#!{sys.executable}
import os, signal, subprocess, sys
if sys.argv[1:2] != ["fetch"]:
    os.execv({real!r}, [{real!r}, *sys.argv[1:]])
child = subprocess.Popen(["sleep", "300"])
open({str(pids)!r}, "w").write(f"{{os.getpid()}}\\n{{child.pid}}\\n")
os.kill(os.getpid(), signal.SIGSTOP)
"""
    )
    (bin_dir / "git").chmod(0o755)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_a_stuck_git_fetch_is_ended_with_its_children_in_one_line(tmp_path, monkeypatch, capsys):
    pids = tmp_path / "pids"
    _stopping_git(tmp_path / "bin", pids)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(fetch, "GIT_TIMEOUT_S", 1.0)
    dest = tmp_path / "out" / "nvdla-hw"
    args = ["--dest", str(dest), "--lock", str(LOCK), "--url", "https://nvdla-hw.invalid/hw"]
    rc = fetch.main(args, "make nvdla", "NVDLA_HW=<a checkout>")
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("make nvdla: git fetch: timeout: still running after 1s, process group killed")
    assert len(err.splitlines()) == 1 and "NVDLA_HW=<a checkout>" in err, err
    stopped, child = (int(x) for x in pids.read_text().split())
    assert not _alive(stopped) and not _alive(child)  # the stopped git and its child: the whole group
    assert not dest.exists() and list(dest.parent.iterdir()) == []


def test_a_git_fetch_dies_with_a_killed_make_nvdla(tmp_path):
    pids = tmp_path / "pids"
    _stopping_git(tmp_path / "bin", pids)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    dest = tmp_path / "out" / "nvdla-hw"
    cmd = [sys.executable, "-m", "dlaverif.thirdparty.fetch", "--dest", str(dest), "--lock", str(LOCK)]
    make_nvdla = subprocess.Popen([*cmd, "--url", "https://nvdla-hw.invalid/hw"], cwd=project.ROOT, env=env)
    try:
        end = time.monotonic() + 30
        while not (pids.is_file() and len(pids.read_text().split()) == 2) and time.monotonic() < end:
            time.sleep(0.05)
        stopped, child = (int(x) for x in pids.read_text().split())
        make_nvdla.kill()  # SIGKILL, as the OOM killer does: no handler of make nvdla runs
        make_nvdla.wait()
        end = time.monotonic() + 10
        while (_alive(stopped) or _alive(child)) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(stopped) and not _alive(child)
    finally:
        if make_nvdla.poll() is None:
            make_nvdla.kill()


def test_a_missing_lock_is_one_line(tmp_path, capsys):
    assert fetch.main(["--dest", str(tmp_path / "d"), "--lock", str(tmp_path / "no.json")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "no.json: not a lock" in err and not (tmp_path / "d").exists(), err


def checkout_copy(into: Path) -> Path:
    """A copy of this checkout's files (tracked and new, as they are now) at ``into/x``: no sibling ``shared/``."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=project.ROOT, capture_output=True, check=True
    ).stdout.decode()
    copy = into / "x"
    for rel in filter(None, files.split("\0")):
        src = project.ROOT / rel
        if src.is_file():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, copy / rel)
    assert not (into / "shared").exists()
    return copy


def run_in(copy: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python args`` in the copy, with neither ``NVDLA_HW`` nor a mirror set."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in (thirdparty.NVDLA_HW, URL_VAR, thirdparty.ROOTS_VAR, "PYTEST_ADDOPTS")
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=copy,
        env={**base, "PYTHONPATH": str(copy), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def pytest_in(copy: Path) -> subprocess.CompletedProcess[str]:
    return run_in(copy, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-rs", *NEEDING)


def test_a_checkout_without_nvidias_files_skips_the_tests_that_need_them_saying_how_to_get_them(tmp_path):
    copy = checkout_copy(tmp_path)
    out = pytest_in(copy)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert " skipped" in text and "failed" not in text and " error" not in text, text
    said = f"skipped: nvdla_pdp_rdma: NVDLA_HW is not set and no default of it exists ({copy}/sim_build/thirdparty/"
    assert said in text and "make nvdla" in text, text
    # each test's item of each of NVIDIA's builds (a file list under $NVDLA_HW), counted in the summary
    lists = [b.options.filelist for b in testplan.load().builds.values() if b.options.filelist is not None]
    nvidia = [f for f in lists if "$NVDLA_HW" in f.read_text()]
    assert f" {len(NEEDING) * len(nvidia)} skipped" in text, text


def test_make_nvdla_into_a_checkout_makes_its_tests_run(tmp_path, nvdla_files):
    copy = checkout_copy(tmp_path / "clone")
    repo, lock = stand_in(tmp_path / "net", nvdla_files)
    got = run_in(
        copy,
        "-m",
        "dlaverif.flow.fetchroot",
        thirdparty.NVDLA_HW,
        "--lock",
        str(lock),
        "--no-local",
        **{URL_VAR: str(repo)},
    )
    assert got.returncode == 0, got.stderr
    fetched = copy / "sim_build" / "thirdparty" / "nvdla-hw"
    assert {p.relative_to(fetched).as_posix() for p in fetched.rglob("*") if p.is_file()} == set(nvdla_files)
    out = pytest_in(copy)
    text = out.stdout + out.stderr
    assert out.returncode == 0 and "skipped" not in text and "SKIPPED" not in text, text
    assert " passed" in text, text
