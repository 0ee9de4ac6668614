"""The fast path's per-job files live in memory (dlaverif/fastpath/harness.py, ``exchange_in_memory``): the run
folder holds links of the names the HDL opens, each to a file of one private folder of the memory-backed place; a
place that is missing or not writable leaves the files in the run folder."""

from __future__ import annotations

from pathlib import Path

from dlaverif.fastpath.harness import EXCHANGE_FILES, exchange_in_memory


def test_the_exchange_files_are_links_into_a_folder_of_their_own(tmp_path: Path) -> None:
    run, ram = tmp_path / "run", tmp_path / "ram"
    run.mkdir()
    ram.mkdir()
    (run / "hdl_cfg.bin").write_bytes(b"stale")  # a file of an earlier run in that folder is replaced by the link
    place = exchange_in_memory(run, ram)
    assert place is not None and place.parent == ram
    for name in EXCHANGE_FILES:
        assert (run / name).is_symlink() and (run / name).resolve() == (place / name).resolve()
    (run / "hdl_mem.bin").write_bytes(b"\x01\x02")  # written through the name the HDL opens
    assert (place / "hdl_mem.bin").read_bytes() == b"\x01\x02"
    assert not (run / "hdl_cfg.bin").exists()  # the link dangles until the next job writes its file
    second = exchange_in_memory(run, ram)  # a second harness in the same folder (the next test) gets its own
    assert second is not None and second != place


def test_no_memory_place_keeps_the_files_in_the_run_folder(tmp_path: Path) -> None:
    assert exchange_in_memory(tmp_path, tmp_path / "missing") is None
    assert not any(p.is_symlink() for p in tmp_path.iterdir())


def test_the_list_is_every_file_the_hdl_opens() -> None:
    import re

    from dlaverif.fastpath import HDL_SOURCES

    opened = {m for p in HDL_SOURCES for m in re.findall(r'\$fopen\("([a-z_]+\.bin)"', p.read_text())}
    assert opened == set(EXCHANGE_FILES)
