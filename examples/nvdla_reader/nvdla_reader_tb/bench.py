"""nvdla_reader on the platform's generic NVDLA read client: its binding, what a job reads and how it is programmed,
its env and test base (the glue)."""

from pathlib import Path

from dlaverif.agents.nvdla.dma_read import NvdlaReadPort
from dlaverif.agents.nvdla.flagged_stream import FlaggedStream
from dlaverif.footprint import Region
from dlaverif.platform import ReaderEnv, ReaderTestBase
from dlaverif.platform.nvdla_client import NvdlaClientTB, nvdla_binding
from dlaverif.thirdparty.nvdla_rdl import RdlFile

from .items import CubeJob
from .scoreboard import CubeCoverage, CubeScoreboard

STREAM = FlaggedStream("rdr2dp", 256, (("line_end", 1), ("surf_end", 1), ("cube_end", 1)), last=("cube_end",))


class NvdlaReaderTB(NvdlaClientTB):
    binding = nvdla_binding(  # one register group: one job at a time; no credit wire: responses paced by rsp_ready
        csb=("csb2rdr_req", "rdr2csb_resp"),
        regs=RdlFile(path=str(Path(__file__).parents[1] / "rtl" / "nvdla_reader.rdl")),
        done="rdr_done_intr",
        ports=(NvdlaReadPort("rdr2mcif_rd_req", "mcif2rdr_rd_rsp"),),
        stream=STREAM,
        groups=1,
    )

    def regions(self, job: CubeJob) -> list[Region]:
        return job.footprint()

    def pieces(self, job: CubeJob) -> list:
        return [(job.base, job.image())]

    def payload(self, job: CubeJob) -> dict[str, int]:
        return job.registers(self.regs)


class NvdlaReaderEnv(ReaderEnv):
    scoreboard_cls = CubeScoreboard
    coverage_cls = CubeCoverage


class NvdlaReaderTest(ReaderTestBase):
    tb_cls = NvdlaReaderTB
    env_cls = NvdlaReaderEnv
