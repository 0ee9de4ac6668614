"""The driver every reader shares: one item, one job."""

from __future__ import annotations

from pyuvm import ConfigDB, uvm_analysis_port, uvm_driver

from tb.platform.reporting import JOBLOG
from tb.platform.tb import ReaderTB


class JobDriver(uvm_driver):
    """Runs each item as one job on the DUT (``ReaderTB.run_job``) and publishes the finished job on ``ap``."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: ReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            res = await self.tb.run_job(item)
            await self.tb.flush()
            if JOBLOG:
                self.logger.info("job %s: %s", item.label(), res.status)
            self.ap.write(item)
            self.seq_item_port.item_done()
