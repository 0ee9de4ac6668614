"""stream_dma on the platform: its binding (descriptor stream, status port, tie-offs), what a job reads and hands
over, its env and test base (the glue)."""

import os

from dlaverif.footprint import Region
from dlaverif.platform import Completion, DescriptorControl, DutBinding, ReaderEnv, ReaderTB, ReaderTestBase, ResetPin

from .items import TDEST, DmaJob
from .scoreboard import RealignedScoreboard

FIELDS = (("addr", "s_desc_addr"), ("len", "s_desc_len"), ("tag", "s_desc_tag"), ("tid", "s_desc_tid"))


class StreamDmaTB(ReaderTB):
    binding = DutBinding(
        control=DescriptorControl(  # st_tag, st_err: checked per job by the platform (the job's tag, error 0)
            "s_desc_tvalid", "s_desc_tready", FIELDS, "st_valid", 4, status=(("tag", "st_tag"), ("error", "st_err"))
        ),
        clock="ap_clk",
        reset=ResetPin("ap_rst_n", active_high=False),
        axi_master="m_axi_gmem",
        streams=("m_axis_out",),
        completion=Completion(os.getenv("COMPLETION", "drained")),  # st_valid after the last transfer: drained
        ties=(("enable", 1), ("s_desc_tdest", TDEST)),  # tdest: one destination for every job
    )

    def regions(self, job: DmaJob) -> list[Region]:
        return [Region(job.get_name(), job.addr, job.addr + job.length)]

    def pieces(self, job: DmaJob) -> list[tuple[int, bytes]]:
        return [(job.addr, job.blob.tobytes())]

    def payload(self, job: DmaJob) -> dict[str, int]:
        return {"addr": job.addr, "len": job.length, "tag": job.tag, "tid": job.tid}


class StreamDmaEnv(ReaderEnv):
    scoreboard_cls = RealignedScoreboard


class StreamDmaTest(ReaderTestBase):
    tb_cls = StreamDmaTB
    env_cls = StreamDmaEnv
