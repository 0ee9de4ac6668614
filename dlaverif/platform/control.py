"""How a job is handed to a DUT and how it ends, one strategy per control style of the binding, chosen once
(:func:`control_for`, as :func:`dlaverif.platform.backends.backend_for` chooses the backend). This is the only place the
platform branches on the control style; :meth:`dlaverif.platform.tb.ReaderTB.run_job`, the driver, the sequences, the
scoreboard and the coverage are the same for every DUT.

* :class:`~dlaverif.platform.control_registers.RegisterJobs`: one job at a time over an ``.rdl`` register block (our
  readers): the job is over when :meth:`JobControl.run` returns;
* :class:`~dlaverif.platform.control_pipelined.PipelinedJobs`: a descriptor port with several jobs in flight,
  NVDLA's CSB with a job per register group (:mod:`dlaverif.agents.nvdla.csb`), or start/done pins with one:
  :meth:`JobControl.run` returns once the DUT took the job; the jobs are over (and framed into their outputs by
  :mod:`dlaverif.platform.completion`) at :meth:`JobControl.settle`.

The driver runs ``run`` per item and publishes :meth:`JobControl.take_finished`; the test settles after its
sequence; the scoreboard asks :meth:`JobControl.split` for what crossed the buses during each job and
:meth:`JobControl.protocol_problems` for its protocol errors.
"""

from __future__ import annotations

from typing import Any

from dlaverif.agents.analysis import JobLog
from dlaverif.platform.binding import CsbControl, DescriptorControl, PinControl, RegisterControl
from dlaverif.platform.job import ReaderItem


class JobControl:
    """The interface of a control style (module docstring)."""

    def __init__(self, tb: Any) -> None:
        self.tb = tb
        self.finished: list[ReaderItem] = []  # jobs over, not yet published
        #: jobs the bench keeps in flight to fill the DUT's queues (``IN_FLIGHT=capacity``), 0 when it does not: a
        #: burst of :class:`dlaverif.platform.sequences.BurstSeqBase` then brings at least twice as many
        self.fill = 0
        #: the width in bits of each payload field's port (a descriptor port's or start pin's; empty for registers):
        #: what a block's items draw ids and tags over, so a configuration that widens a field drives its top bits
        self.field_bits: dict[str, int] = {}

    async def run(self, item: ReaderItem) -> None:
        """Hand ``item`` to the DUT (for one-at-a-time controls: run it to its end); ``item.result`` is set."""
        raise NotImplementedError

    async def settle(self) -> None:
        """Wait until every job handed over is over."""

    def take_finished(self) -> list[ReaderItem]:
        """The jobs over since the last call, in job order."""
        out, self.finished = self.finished, []
        return out

    def split(self, item: ReaderItem, log: JobLog) -> dict[str, list]:
        """What ``log`` saw during ``item`` (``out``, ``ar``, ``r``, ``violations``)."""
        raise NotImplementedError

    def protocol_problems(self, item: ReaderItem) -> list[str]:
        """The job's protocol errors against what the binding says its completion means."""
        raise NotImplementedError

    def clear(self) -> None:
        """The DUT is about to be reset."""


def control_for(tb: Any) -> JobControl:
    """The control strategy of ``tb.binding``, chosen once (the one branch on the control style)."""
    # imported here: the strategies' modules import JobControl from this one
    from dlaverif.agents.nvdla.csb import sender_for
    from dlaverif.platform.control_pipelined import DescriptorSender, PinSender, PipelinedJobs
    from dlaverif.platform.control_registers import RegisterJobs

    ctl = tb.binding.control
    if isinstance(ctl, RegisterControl):
        return RegisterJobs(tb, ctl)
    if isinstance(ctl, DescriptorControl):
        sender = DescriptorSender(tb.dut, tb.clk, ctl, tb.binding.period_ns, tb.binding.capacity)
        return PipelinedJobs(tb, sender, ctl.done, ctl.stream_tag)
    if isinstance(ctl, PinControl):
        return PipelinedJobs(tb, PinSender(tb.dut, tb.clk, ctl, tb.binding.period_ns), ctl.done, None)
    if isinstance(ctl, CsbControl):
        return PipelinedJobs(tb, sender_for(tb, ctl), ctl.done, None)
    raise TypeError(f"no job control for {type(ctl).__name__}")
