"""Write ``blocks/nvdla_hw.lock.json``, the pin of NVIDIA's files that ``make nvdla`` (:mod:`dlaverif.flow.fetchroot`,
the plan's root ``NVDLA_HW``) fetches and checks: run once over copies whose origin is known (the shared exports, each
described by its README), and again only when the pin changes.

    python -m blocks.nvdla_lock ../shared/thirdparty/nvdla-pdp-rdma ../shared/thirdparty/nvdla-cdma

Each folder is one block (its name); its files are every file under ``vmod/`` and ``spec/`` and the ``LICENSE``
(the exports' own README and file lists are not NVIDIA's). A path that two blocks share must have the same bytes in
both. Which commit a file comes from is the exports' rule (:func:`branch_of`): ``spec/`` (NVIDIA's register
descriptions) and ``vmod/rams/fpga/`` (flop-array RAM wrappers) from branch master, everything else from nvdlav1.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

LOCK = Path(__file__).resolve().parent / "nvdla_hw.lock.json"
REPOSITORY = "https://github.com/nvdla/hw"
LICENCE = "LICENSE"
#: branch -> the commit its files were exported at (the shared exports' READMEs)
COMMITS = {
    "nvdlav1": "8e06b1b9d85aab65b40d43d08eec5ea4681ff715",
    "master": "1a65f1f5b48268accaa47c95f95c2601918be095",
}
FOLDERS = ("vmod", "spec")


def branch_of(path: str) -> str:
    """The branch a file of nvdla/hw was exported from (the exports' READMEs)."""
    return "master" if path.startswith(("spec/", "vmod/rams/fpga/")) else "nvdlav1"


def block_files(folder: Path) -> list[str]:
    """A block's NVIDIA files, relative to its folder, sorted: every file under :data:`FOLDERS` and the licence."""
    found = [p for d in FOLDERS for p in (folder / d).rglob("*") if p.is_file()] + [folder / LICENCE]
    return sorted(p.relative_to(folder).as_posix() for p in found)


def lock(folders: list[Path]) -> dict:
    """The lock's content for these block folders (ValueError when two blocks hold different bytes at one path)."""
    files: dict[str, dict[str, str]] = {}
    blocks: dict[str, list[str]] = {}
    for folder in folders:
        blocks[folder.name] = block_files(folder)
        for rel in blocks[folder.name]:
            digest = hashlib.sha256((folder / rel).read_bytes()).hexdigest()
            known = files.get(rel)
            if known is not None and known["sha256"] != digest:
                raise ValueError(f"{rel}: differs between the blocks ({known['sha256']} and {digest})")
            branch = branch_of(rel)
            files[rel] = {"branch": branch, "commit": COMMITS[branch], "sha256": digest}
    return {
        "repository": REPOSITORY,
        "licence": LICENCE,
        "blocks": blocks,
        "files": dict(sorted(files.items())),
    }


def main(argv: list[str]) -> int:
    """Write :data:`LOCK` from the block folders named in ``argv``; exit 2 with one line on bad input."""
    folders = [Path(a) for a in argv]
    bad = [str(f) for f in folders if not (f / LICENCE).is_file()]
    if not folders or bad:
        print(f"lock: give the block folders (each with a {LICENCE}): {' '.join(bad) or 'none given'}", file=sys.stderr)
        return 2
    try:
        content = lock(folders)
    except ValueError as exc:
        print(f"lock: {exc}", file=sys.stderr)
        return 2
    LOCK.write_text(json.dumps(content, indent=1) + "\n")
    print(f"lock: {len(content['files'])} files of {len(folders)} blocks into {LOCK}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
