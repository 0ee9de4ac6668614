"""nvdla_reader's checks, on the platform's generic NVDLA read client: the model's answer for a cube
(``models.nvdla.feature``: every atom's address and bytes) as the reader must move it: one request per line at the
line's first atom with its width, surface by surface; each atom one output word in that order, ``line_end`` on a
line's last atom, ``surf_end`` on a surface's last, ``cube_end`` on the cube's last; and its covergroups."""

from __future__ import annotations

import numpy as np

from dlaverif.platform.nvdla_client import ClientExpected, NvdlaClientCoverage, NvdlaClientScoreboard

from .items import ATOM, FORMATS, CubeJob


class CubeScoreboard(NvdlaClientScoreboard):
    def expected(self, job: CubeJob) -> ClientExpected:
        d = job.descriptor()
        atoms = d.atom_addresses()[0]  # (surfaces, lines, atoms of a line)
        s, h, w = atoms.shape
        lines = atoms[:, :, 0].reshape(-1).astype(np.uint64)
        requests = np.stack([np.zeros_like(lines), lines, np.full_like(lines, w - 1)], axis=1)
        i_s, i_h, i_w = np.indices((s, h, w)).reshape(3, -1)
        line_end = i_w == w - 1
        surf_end = line_end & (i_h == h - 1)
        flags = self.client.stream.encode(line_end=line_end, surf_end=surf_end, cube_end=surf_end & (i_s == s - 1))
        data = d.gather(job.image(), d.base).reshape(-1)
        return ClientExpected(requests, data, flags, s * h * -(-w // 2))

    def request_place(self, job: CubeJob, k: int) -> str:
        s, h = divmod(k, job.tensor.shape[1])
        return f"surface {s}, line {h}"

    def word_place(self, job: CubeJob, word: int) -> str:
        atoms = job.descriptor().atom_addresses()[0]
        if word >= atoms.size:
            return f"word #{word} (beyond the cube's {atoms.size} atoms)"
        s, h, w = np.unravel_index(word, atoms.shape)
        return f"word #{word} (surface {s}, line {h}, atom {w}) at 0x{int(atoms[s, h, w]):x}"


def _surfaces(job: CubeJob) -> str:
    c, epa = job.tensor.shape[0], ATOM // job.tensor.dtype.itemsize
    return "one" if c <= epa else ("partial_last" if c % epa else "whole")


class CubeCoverage(NvdlaClientCoverage):
    prefix = "nvdla_reader"
    points = (
        ("dtype", lambda job: job.tensor.dtype.name, list(FORMATS)),
        ("surfaces", _surfaces, ["one", "whole", "partial_last"]),
        ("width", lambda job: min(job.tensor.shape[2], 3), [1, 2, 3]),  # 3: three atoms or more
        ("base_4g_carry", lambda job: job.base >> 32 != (job.base + job.descriptor().extent - 1) >> 32, [False, True]),
    )
    crosses = (("dtype_x_surfaces", ("dtype", "surfaces")),)
