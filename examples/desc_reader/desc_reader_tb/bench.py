"""desc_reader on the platform: its binding (with how many jobs it holds), its test base with its scoreboard (the
glue). A job's descriptor is the platform's default payload of a byte range: its ``addr``, ``len`` and ``job_id``."""

from dlaverif.platform import Completion, DescriptorControl, DutBinding, ReaderTestBase, ResetPin
from dlaverif.platform.tb import ContiguousReaderTB

from .scoreboard import PackedScoreboard

FIELDS = (("addr", "desc_addr_i"), ("len", "desc_len_i"), ("job_id", "desc_id_i"))  # payload field (the item's) -> port


class DescReaderTB(ContiguousReaderTB):
    binding = DutBinding(  # up to 3 jobs in flight (SLOTS=2 wait behind the one being read), paired by id in TUSER
        control=DescriptorControl("desc_valid_i", "desc_ready_o", FIELDS, "fin_o", queue_depth=3, stream_tag="job_id"),
        clock="clk_i",
        reset=ResetPin("rst_ni", active_high=False),
        axi_master="mem",
        streams=("pkt",),
        completion=Completion.ISSUED,  # fin_o comes when the job is read, before its packed tail leaves
        capacity=lambda p: p.SLOTS + 1,  # SLOTS queued behind the one being read
    )


class DescReaderTest(ReaderTestBase):
    tb_cls = DescReaderTB
    scoreboard_cls = PackedScoreboard
