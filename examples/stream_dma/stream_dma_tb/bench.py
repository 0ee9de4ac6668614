"""stream_dma on the platform: its binding (descriptor stream, status port, tie-offs), what a job reads and hands
over, its env and test base (the glue)."""

import os

from dlaverif.platform import Completion, DescriptorControl, DutBinding, ReaderEnv, ReaderTestBase, ResetPin
from dlaverif.platform.tb import ContiguousReaderTB

from .items import DmaJob
from .scoreboard import RealignedScoreboard

FIELDS = tuple((f, f"s_desc_{f}") for f in ("addr", "len", "tag", "tid", "tdest"))  # payload field -> its port
STATUS = (("tag", "st_tag"), ("error", "st_err"))  # checked per job by the platform: the job's tag, error 0
IDS = (("tid", "tid"), ("tdest", "tdest"))  # checked per output transfer by the platform: the job's TID and TDEST


class StreamDmaTB(ContiguousReaderTB):
    binding = DutBinding(
        control=DescriptorControl(
            "s_desc_tvalid", "s_desc_tready", FIELDS, "st_valid", 4, status=STATUS, stream_fields=IDS
        ),
        clock="ap_clk",
        reset=ResetPin("ap_rst_n", active_high=False),
        axi_master="m_axi_gmem",
        streams=("m_axis_out",),
        completion=Completion(os.getenv("COMPLETION", "drained")),  # st_valid after the last transfer: drained
        ties=(("enable", 1),),
    )

    def payload(self, job: DmaJob) -> dict[str, int]:
        return {"addr": job.addr, "len": job.length, "tag": job.tag, "tid": job.tid, "tdest": job.tdest}


class StreamDmaEnv(ReaderEnv):
    scoreboard_cls = RealignedScoreboard


class StreamDmaTest(ReaderTestBase):
    tb_cls = StreamDmaTB
    env_cls = StreamDmaEnv
