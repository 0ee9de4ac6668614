"""The driver every reader shares: one item, one job, whatever the DUT's control style."""

from __future__ import annotations

from pyuvm import ConfigDB, uvm_analysis_port, uvm_driver

from dlaverif.platform.reporting import JOBLOG
from dlaverif.platform.tb import ReaderTB


class JobDriver(uvm_driver):
    """Runs each item as one job on the DUT (``ReaderTB.run_job``) and publishes the jobs that are over on ``ap``, in
    job order (for a register-controlled DUT the item's own job at once; with several jobs in flight, those the
    control found over; the rest at :meth:`settle`, which the test calls after its sequence)."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: ReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            # the jobs a settle ended since the last item (a sequence settles the TB between its bursts): published
            # before this job starts, so that what the monitors saw of them ends before its first request
            self.publish()
            await self.tb.run_job(item)
            await self.tb.flush()
            self.publish()
            self.seq_item_port.item_done()

    def publish(self) -> None:
        for done in self.tb.control.take_finished():
            if JOBLOG:
                self.logger.info("job %s: %s", done.label(), done.response().status)
            self.ap.write(done)

    async def settle(self) -> None:
        """Wait until every job handed over is over and publish them."""
        await self.tb.settle()
        self.publish()
