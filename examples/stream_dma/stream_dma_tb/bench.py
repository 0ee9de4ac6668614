"""stream_dma on the platform: its binding (descriptor stream, status port, tie-offs, how many jobs it holds), its
test base with its scoreboard (the glue). A job's descriptor is the platform's default payload of a byte range: its
``addr`` and ``len``, and the job's ``tag``, ``tid`` and ``tdest``."""

import os

from dlaverif.platform import Completion, ContiguousReaderTB, DescriptorControl, DutBinding, ReaderTestBase, ResetPin

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
        capacity=lambda p: p.JOBS + 1,  # JOBS queued between the AR and R sides, one streamed (4 kept by default)
    )


class StreamDmaTest(ReaderTestBase):
    tb_cls = StreamDmaTB
    scoreboard_cls = RealignedScoreboard
