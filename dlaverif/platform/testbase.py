"""The test bases every reader shares: seeding and the ConfigDB, the register test, the scoreboard self-tests."""

from __future__ import annotations

import functools
import gc
import os
import warnings
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_test

from dlaverif.platform.env import ReaderEnv
from dlaverif.platform.reach import write_record
from dlaverif.platform.register_check import check_register_map
from dlaverif.platform.reporting import regression_seed
from dlaverif.platform.tb import ReaderTB

# cocotbext-axi 0.1.28 on cocotb 2.x: its use of cocotb 1.x names warns on every call (every block's tests)
warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"cocotbext\..*")


def count_from_env(default: int) -> int:
    """``COUNT`` (random items per family of the block's sequences; ``default`` when unset), scaled by
    ``COUNT_SCALE`` (the 512-bit suites use 0.25)."""
    count = int(os.getenv("COUNT", "").strip() or default)
    scale = float(os.getenv("COUNT_SCALE", "").strip() or 1.0)
    return max(1, int(round(count * scale)))


class ReaderTestBase(uvm_test):
    """Seeds the RNG from ``cocotb.RANDOM_SEED`` (logged with the run seed, so that the reproduce command works),
    builds the block's TB and env, resets, runs :meth:`body`, then closes the read checker (nothing may be read
    after the last job) and flushes the fast path's logs.

    A block sets ``tb_cls``, ``env_cls`` (or only ``scoreboard_cls``), ``default_count`` and may add ConfigDB entries
    (:meth:`config`) and words to the first log line (:meth:`describe`)."""

    tb_cls: type = ReaderTB
    env_cls: type = ReaderEnv
    #: the block's scoreboard, when it is all its env changes: the env is then :attr:`env_cls` with it
    scoreboard_cls: Optional[type] = None
    default_count = 8

    def config(self, tb: ReaderTB) -> dict[str, Any]:
        return {}

    def describe(self, tb: ReaderTB) -> str:
        return ""

    def build_phase(self) -> None:
        seed = cocotb.RANDOM_SEED
        self.rng = np.random.default_rng(seed)
        self.count = count_from_env(self.default_count)
        tb = self.tb_cls(cocotb.top, np.random.default_rng([seed, 1]))
        entries = {
            "RNG": self.rng,
            "TB": tb,
            "ADDR_BITS": tb.addr_bits,
            "BUS_BYTES": tb.bus_bytes,
            "COUNT": self.count,
            "TEST_NAME": type(self).__name__,
            "TEST_FULLNAME": f"{type(self).__module__}.{type(self).__name__}",
            **self.config(tb),
        }
        db = ConfigDB()
        for key, value in entries.items():
            db.set(None, "*", key, value)
        self.tb = tb
        env_cls = self.env_cls
        if self.scoreboard_cls is not None:
            env_cls = type(f"{type(self).__name__}Env", (env_cls,), {"scoreboard_cls": self.scoreboard_cls})
        self.env = env_cls("env", self)
        extra = self.describe(tb)
        self.logger.info(
            "%s: run seed %d, test seed %d (cocotb.RANDOM_SEED, seeds numpy), COUNT=%d, AXI_DATA_W=%d, AXI_ADDR_W=%d%s",
            type(self).__name__,
            regression_seed(),
            seed,
            self.count,
            tb.bus_bytes * 8,
            tb.addr_bits,
            f", {extra}" if extra else "",
        )

    async def run_phase(self) -> None:
        self.raise_objection()
        # What exists before the run (the env, cocotb and pyuvm, the models' tables) lives as long as the test:
        # frozen, the cyclic collector's full passes skip it (6 % of the default path's time, measured). Unfrozen
        # when the test ends, so that the next test in this simulator process can collect it.
        gc.freeze()
        try:
            await self.tb.reset()
            await self.body()
            await self.env.driver.settle()  # the jobs still in flight (descriptor ports)
            self.tb.reads.close()  # nothing may be read after the last job
            await ClockCycles(self.tb.clk, 10)
            await self.tb.flush()
            self.tb.reach.most_jobs_in_flight = getattr(self.tb.control, "most_in_flight", 0)
            write_record(self.tb.reach, type(self).__name__)  # what the stimulus reached (dlaverif.platform.reach)
        finally:
            gc.unfreeze()
        self.drop_objection()

    #: the sequence class and name this test runs, when running it is all the test does (the idea of OpenTitan's
    #: UVM_TEST_SEQ: the test is a name, the sequence the stimulus); a test that does more overrides :meth:`body`
    sequence: Optional[tuple[type, str]] = None

    async def body(self) -> None:
        """Run :attr:`sequence` on the env's sequencer."""
        if self.sequence is None:
            raise NotImplementedError(f"{type(self).__name__} names no sequence and has no body")
        seq_cls, name = self.sequence
        await self.run_seq(seq_cls(name))

    async def run_seq(self, seq) -> None:
        await seq.start(self.env.seqr)


#: (item, expected, the test's RNG) -> the text its report must contain; corrupts ``expected`` (the model's answer)
Corruption = Callable[[Any, Any, np.random.Generator], str]


def field_corruption(name: str, text: str, index: Any = None, delta: int = 1) -> Corruption:
    """A corruption adding ``delta`` to the expected answer's field ``name`` (its element ``index`` when given, e.g.
    ``(-1, 3)``: the last row's fourth coordinate); its report must name ``text``. E.g. one unit fewer allowed on
    the stream, a coordinate, a status counter."""

    def corrupt(item, exp, rng) -> str:
        if index is None:
            setattr(exp, name, getattr(exp, name) + delta)
        else:
            getattr(exp, name)[index] += delta
        return text

    return corrupt


def error_bit_corruption(bit_mask: int) -> Corruption:
    """A corruption flipping ``bit_mask`` in the model's expected ERROR register (every block's expected answer has
    ``error``); its report names the ERROR register."""

    def corrupt(item, exp, rng) -> str:
        exp.error ^= bit_mask
        return "ERROR register"

    return corrupt


@dataclass(frozen=True)
class SmallJobs:
    """Small legal jobs of a block, as data (its scoreboard self-tests' jobs, its register test's one job): the
    block's sequence class ``seq_cls`` (a :class:`~dlaverif.platform.sequences.ReaderSeqBase`) and ``job(seq, i)``,
    which sends the ``i``-th job on ``seq`` and returns its item. Called as ``small_jobs(name, n)``: a sequence of ``n``
    such jobs, which keeps their items in ``items``."""

    seq_cls: type
    job: Callable[[Any, int], Awaitable[Any]]

    def __call__(self, name: str, n: int) -> Any:
        seq = self.seq_cls(name)
        seq.body = functools.partial(_small_body, seq, n, self.job)
        return seq


async def _small_body(seq: Any, n: int, job: Callable[[Any, int], Awaitable[Any]]) -> None:
    seq.items = []
    for i in range(n):
        seq.items.append(await job(seq, i))


class RegisterTestBase(ReaderTestBase):
    """The register tests of any block, from its register model
    (:func:`dlaverif.platform.register_check.check_register_map`: reset values, access types, write masks, byte strobes,
    unmapped offsets), then one legal job with a second START at once and garbage in every descriptor register
    (:meth:`ReaderTB.mid_job`): the scoreboard must find the job exact (START ignored while busy, the descriptor latched
    at START) and the garbage must have been written.

    A block declares :attr:`one_job` (:class:`SmallJobs` whose job sends one legal item with ``midjob`` set), with
    :func:`dlaverif.platform.declare.declare_register_test`."""

    one_job: SmallJobs

    async def body(self) -> None:
        problems = await check_register_map(
            self.tb.csr, self.tb.csr.regs, self.tb.bus_bytes * 8, self.tb.addr_bits, self.rng
        )
        seq = self.one_job("one", 1)
        await self.run_seq(seq)
        if not seq.items[0].response().midjob_writes:
            problems.append("the job had no mid-job START and writes")
        for p in problems:
            self.logger.error("register check: %s", p)
        assert not problems, f"{len(problems)} register check(s) failed, the first: {problems[0]}"


class ScoreboardSelfTestBase(ReaderTestBase):
    """The scoreboard is able to fail: each corruption of :attr:`corruptions` is applied to the model's answer for
    one job of :attr:`small_jobs` (even jobs; odd ones stay clean) and must be reported for exactly that job, with
    its text. A block declares both as data on its self-test class; the two tests (``ScoreboardSelfTest`` and its
    expect_fail twin ``CorruptModelIsCaught``) are then bodiless."""

    corruptions: tuple[Corruption, ...] = ()  # the block's kinds of corruption of its model's answer
    small_jobs: SmallJobs  # the block's small legal jobs

    async def body(self) -> None:
        sb = self.env.scoreboard
        kinds = self.corruptions
        assert kinds, f"{type(self).__name__} declares no corruptions"
        self.expected: dict[str, str] = {}
        plan = {f"sbtest{2 * i}": i for i in range(len(kinds))}

        def corrupt(item, exp):
            k = plan.get(item.get_name())
            if k is not None:
                self.expected[item.get_name()] = kinds[k](item, exp, self.rng)

        sb.corrupt = corrupt
        sb.expect_reports = self.expected
        await self.run_seq(self.small_jobs("sbtest", 2 * len(kinds)))
        await self.env.driver.settle()  # jobs still in flight are checked (and corrupted) now
        sb.corrupt = None
        assert len(self.expected) == len(kinds), "not every corruption was applied"


class CorruptModelBase(ScoreboardSelfTestBase):
    """The expect_fail twin: the first corruption applied to one job; the scoreboard must fail the test."""

    async def body(self) -> None:
        first = self.corruptions[0]
        self.env.scoreboard.corrupt = lambda item, exp: first(item, exp, self.rng)
        await self.run_seq(self.small_jobs("corrupt", 1))
