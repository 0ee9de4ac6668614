"""The repository as a library, usable from another project: ``pip install <this repo>`` into a fresh
venv gives the models with numpy as their only dependency, and the testbench's and the tools' dependencies are
optional groups that a user of the models alone does not get.

The install is a real one (pip, a wheel built by setuptools, numpy from the package index or pip's cache), from a
copy of the working tree's files so that the build leaves nothing in the checkout."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tracked_files(folder: Path = ROOT) -> list[Path]:
    """The files of ``folder`` that git tracks, or would (untracked but not ignored): no .venv, no sim_build."""
    names = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=folder,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    return [p for p in (folder / n.decode() for n in names if n) if p.is_file()]


def tracked_copy(dest: Path) -> Path:
    """The working tree's tracked and untracked-but-not-ignored files, copied to ``dest``."""
    for src in tracked_files():
        out = dest / src.relative_to(ROOT)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(src.read_bytes())
    return dest


def test_pip_install_gives_the_models_with_numpy_only(tmp_path: Path) -> None:
    repo = tracked_copy(tmp_path / "repo")
    before = sorted(p.name for p in repo.iterdir())
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(repo)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    # the build happens outside the source tree: nothing new in the checkout (no build/, no *.egg-info)
    assert sorted(p.name for p in repo.iterdir()) == before, sorted(p.name for p in repo.iterdir())
    listed = subprocess.run(
        [str(py), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    installed = {line.split("==")[0].lower() for line in listed.split()}
    assert installed - {"pip", "setuptools", "wheel"} == {"dla-formats-verif", "numpy"}, installed

    # the models work from the installed package (run outside the checkout, so nothing comes from PYTHONPATH)
    probe = (
        "import importlib.util as u\n"
        "from dlaverif import models\n"
        "assert '/site-packages/' in models.__file__, models.__file__\n"
        "print(sorted(m for m in ('cocotb', 'pyuvm', 'cocotbext', 'matplotlib', 'yaml') if u.find_spec(m)))\n"
    )
    run = subprocess.run([str(py), "-c", probe], capture_output=True, text=True, cwd=tmp_path, env={"PATH": "/usr/bin"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout  # no simulator-side package came with the models
    cli = subprocess.run(
        [str(py), "-m", "dlaverif.models", "formats"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin"},
    )
    assert cli.returncode == 0 and "nvdla.feature" in cli.stdout, cli.stderr
