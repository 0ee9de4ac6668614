"""Tests as data: a block names its tests and what each runs; the platform makes the pyuvm test classes.

Most of a block's tests only run one sequence on the block's test base (OpenTitan's ``UVM_TEST_SEQ`` idea: a test is
a name, the sequence is the stimulus). A block declares them in one call,

    declare_sequence_tests(BlockTestBase, TIMEOUT_MS,
                           RandomJobsTest=(JobSeq, "jobs", "Every kind of job: ..."), ...)

and its scoreboard self-tests (``ScoreboardSelfTest`` and the expect_fail twin ``CorruptModelIsCaught``) in another,
:func:`declare_scoreboard_selftests`, from its corruptions and small jobs; its ``RegisterTest`` with
:func:`declare_register_test`. The tests every register-controlled reader has (an illegal descriptor, a bus error,
a reset in the middle of a job, heavy stalls: :data:`COMMON_TESTS`) are named and described once, here; a block
gives such a test its sequence alone, or with the words its own check adds, where it wants it in its order:

    declare_sequence_tests(BlockTestBase, TIMEOUT_MS, RandomJobsTest=(...), ResetMidJobTest=ResetSeq,
                           BusErrorTest=(BusErrorSeq, "on the first/middle/last word: stop before that word"))

Each name becomes a class of the module
that makes the call (so ``<its module>.RandomJobsTest`` exists, and the testplan, TESTCASE= and the
reproduce command name it as before) registered with cocotb as ``@pyuvm.test`` registers a class.
``dlaverif.flow.testplan`` finds them as cocotb does, in the imported module (no simulator needed).

``TEST_SEQ`` (environment): the generic test. When set to the class name of one of the block's sequences (any
:class:`~dlaverif.platform.sequences.ReaderSeqBase` of the module that defines the declared sequences), the test module
also gets ``SequenceTest``, which runs that sequence on the block's test base, e.g.
``TEST_SEQ=StallSeq make sim SUITE=smoke RUN=<block>/uvm TESTCASE=SequenceTest``.
"""

from __future__ import annotations

import functools
import os
import sys
from types import ModuleType
from typing import Any

import cocotb
from pyuvm import uvm_root

from dlaverif.platform.sequences import ReaderSeqBase
from dlaverif.platform.testbase import Corruption, CorruptModelBase, RegisterTestBase, ScoreboardSelfTestBase, SmallJobs

#: the environment variable that names the sequence the generic test runs
TEST_SEQ = "TEST_SEQ"
#: the generic test's name
GENERIC_TEST = "SequenceTest"
#: the names :func:`declare_scoreboard_selftests` declares
SELFTESTS = ("ScoreboardSelfTest", "CorruptModelIsCaught")
#: the name :func:`declare_register_test` declares
REGISTER_TESTS = ("RegisterTest",)
#: the common tests: name -> (its sequence's name, what it checks, with ``{}`` for the block's words)
COMMON_TESTS: dict[str, tuple[str, str]] = {
    "IllegalDescriptorTest": (
        "illegal",
        "Each validator rule alone and in combination: exactly the model's error bits ({}), DONE, no AXI read; a "
        "legal job afterwards is exact.",
    ),
    "BusErrorTest": (
        "buserr",
        "SLVERR/DECERR {}; its bus-error bit, DONE, the stream an exact prefix; the next job is exact.",
    ),
    "ResetMidJobTest": (
        "reset",
        "Reset during a job: idle afterwards, no read after the reset, an exact prefix before it; the next job works.",
    ),
    "StallStressTest": ("stall", "Heavy ARREADY/RVALID/TREADY stalls and long read latency{}."),
}


def _caller() -> ModuleType:
    """The module that called a ``declare_*`` function (where its tests belong, as with ``@pyuvm.test``)."""
    return sys.modules[sys._getframe(2).f_globals["__name__"]]


def _declare(
    module: ModuleType,
    base: type,
    name: str,
    doc: str,
    timeout_ms: int,
    bases: tuple[type, ...] = (),
    expect_fail: bool = False,
    **attrs: Any,
) -> type:
    """A test class ``name`` in ``module`` (``base`` and ``bases`` its bases, ``attrs`` its class attributes),
    registered with cocotb the way ``@pyuvm.test`` registers a class (a cocotb test of the class's name that runs it
    as the UVM test)."""
    ns = {"__doc__": doc, "__module__": module.__name__, "__qualname__": name, **attrs}
    cls = type(name, (base, *bases), ns)
    setattr(module, name, cls)

    @cocotb.test(name=name, timeout_time=timeout_ms, timeout_unit="ms", expect_fail=expect_fail)
    @functools.wraps(cls)
    async def run(_dut: Any) -> None:
        await uvm_root().run_test(cls)

    setattr(module, f"__{name}", run)
    return cls


def _sequence_test(name: str, spec: Any) -> tuple[type, str, str]:
    """(sequence class, sequence name, docstring) of a declared test: ``spec`` as given, or for a common test
    (:data:`COMMON_TESTS`) its sequence class alone or (sequence class, the block's words for its description)."""
    if name in COMMON_TESTS and not (isinstance(spec, tuple) and len(spec) == 3):
        seq_cls, words = spec if isinstance(spec, tuple) else (spec, "")
        seq_name, doc = COMMON_TESTS[name]
        return seq_cls, seq_name, doc.format(words)
    return spec


def declare_sequence_tests(base: type, timeout_ms: int, **specs: Any) -> None:
    """The block's tests that run one sequence each: ``Name=(sequence class, sequence name, docstring)`` (a common
    test: ``Name=sequence class`` or ``Name=(sequence class, the block's words)``), in the order given (the order
    cocotb runs them in); and, with ``TEST_SEQ`` set, the generic ``SequenceTest``."""
    module = _caller()
    tests = {name: _sequence_test(name, spec) for name, spec in specs.items()}
    for name, (seq_cls, seq_name, doc) in tests.items():
        _declare(module, base, name, doc, timeout_ms, sequence=(seq_cls, seq_name))
    wanted = os.getenv(TEST_SEQ, "").strip()
    if wanted and tests:
        names = {seq_cls: seq_name for seq_cls, seq_name, _ in tests.values()}
        seq_module = sys.modules[next(iter(names)).__module__]
        known = {
            n: c
            for n, c in vars(seq_module).items()
            if isinstance(c, type) and issubclass(c, ReaderSeqBase) and c.__module__ == seq_module.__name__
        }
        if wanted not in known:
            raise ValueError(f"{TEST_SEQ}={wanted}: not a sequence of {seq_module.__name__} ({', '.join(known)})")
        seq_cls = known[wanted]
        doc = f"The generic test: runs {wanted} ({TEST_SEQ}) on {base.__name__}."
        _declare(module, base, GENERIC_TEST, doc, timeout_ms, sequence=(seq_cls, names.get(seq_cls, wanted.lower())))


def declare_scoreboard_selftests(
    base: type, timeout_ms: int, corruptions: tuple[Corruption, ...], small_jobs: SmallJobs, what: str
) -> None:
    """``ScoreboardSelfTest`` (each of ``corruptions`` applied to one of ``small_jobs`` must be reported for exactly
    that job; ``what`` lists them for the docstring) and its expect_fail twin ``CorruptModelIsCaught`` (the first
    corruption must fail the test), on the block's test base."""
    data: dict[str, Any] = {"corruptions": corruptions, "small_jobs": small_jobs}
    module = _caller()
    _declare(
        module,
        base,
        SELFTESTS[0],
        f"The scoreboard is able to fail: each corruption of the model's answer ({what}) is reported for exactly "
        "the corrupted job, with its text; the clean jobs in between pass.",
        timeout_ms,
        (ScoreboardSelfTestBase,),
        **data,
    )
    _declare(
        module,
        base,
        SELFTESTS[1],
        "expect_fail twin: the model's answer for one job carries the first corruption; the scoreboard must fail "
        "the test.",
        timeout_ms,
        (CorruptModelBase,),
        expect_fail=True,
        **data,
    )


def declare_register_test(base: type, timeout_ms: int, one_job: SmallJobs, job: str) -> None:
    """``RegisterTest`` on the block's test base (:class:`~dlaverif.platform.testbase.RegisterTestBase`): the register
    tests of its register model, then ``one_job`` (one legal ``job``, e.g. "cube", with ``midjob`` set) with a
    second START and garbage writes while it runs."""
    _declare(
        _caller(),
        base,
        REGISTER_TESTS[0],
        f"The register tests of the model (dlaverif.platform.register_check), then one {job} with a second START "
        "and garbage writes.",
        timeout_ms,
        (RegisterTestBase,),
        one_job=one_job,
    )
