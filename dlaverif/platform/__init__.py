"""What every reader testbench shares, one role a module:

* :mod:`~dlaverif.platform.binding`: what the platform knows of a DUT, as data (:class:`DutBinding`);
* :mod:`~dlaverif.platform.backends`: the memory and stream backends (Python agents or the HDL fast path), chosen once;
* :mod:`~dlaverif.platform.tb`: :class:`ReaderTB`, the TB built from a binding, and the one job protocol
  (:class:`ContiguousReaderTB`: jobs of one byte range each);
* :mod:`~dlaverif.platform.contiguous`: the scoreboard of such jobs (:class:`ContiguousScoreboard`: their bytes, short
  transfers, TUSER) and its self-tests' corruptions;
* :mod:`~dlaverif.platform.job`: a job's request (:class:`ReaderItem`), response (:class:`JobResult`), expected answer;
* :mod:`~dlaverif.platform.knobs`: timing knobs; :mod:`~dlaverif.platform.reporting`: seeds, the reproduce command;
* :mod:`~dlaverif.platform.checks`: the sideband, bus, reset and hang checks every scoreboard makes;
* :mod:`~dlaverif.platform.register_values`: a register map's descriptor words and ERROR bits;
* :mod:`~dlaverif.platform.driver`, :mod:`~dlaverif.platform.scoreboard`, :mod:`~dlaverif.platform.env`,
  :mod:`~dlaverif.platform.sequences`, :mod:`~dlaverif.platform.coverage`, :mod:`~dlaverif.platform.testbase`: the pyuvm
  pieces.

A block's testbench subclasses :class:`ReaderItem`, :class:`ReaderTB` (with its binding), :class:`JobScoreboard`,
:class:`ReaderEnv` and :class:`ReaderTestBase`; every name stays importable from ``dlaverif.platform``.
"""

from dlaverif.platform.binding import (
    PERIOD_NS,
    Completion,
    DescriptorControl,
    DutBinding,
    PinControl,
    RegisterControl,
    ResetPin,
)
from dlaverif.platform.checks import (
    UnitCut,
    bus_problems,
    cut_units,
    hang_problems,
    job_problems,
    reset_problems,
    sent_problems,
    sideband_problems,
    status_problems,
    unit_rows,
    unit_stream_problems,
)
from dlaverif.platform.contiguous import ContiguousExpectation, ContiguousScoreboard, flip_byte, flip_user
from dlaverif.platform.coverage import CoverageSubscriber, Covergroups, job_fields, job_points
from dlaverif.platform.declare import declare_register_test, declare_scoreboard_selftests, declare_sequence_tests
from dlaverif.platform.driver import JobDriver
from dlaverif.platform.env import ReaderEnv
from dlaverif.platform.job import Expectation, JobResult, ReaderItem
from dlaverif.platform.knobs import STALLS, Knobs, random_knobs
from dlaverif.platform.register_values import ErrorBits, descriptor_words, error_bits
from dlaverif.platform.reporting import hex_bytes, regression_seed, reproduce_command
from dlaverif.platform.scoreboard import JobScoreboard
from dlaverif.platform.sequences import BurstSeqBase, ReaderSeqBase, config_value
from dlaverif.platform.tb import ContiguousReaderTB, ReaderTB
from dlaverif.platform.testbase import (
    Corruption,
    CorruptModelBase,
    ReaderTestBase,
    RegisterTestBase,
    ScoreboardSelfTestBase,
    SmallJobs,
    count_from_env,
    error_bit_corruption,
    field_corruption,
)

__all__ = [
    "BurstSeqBase",
    "Completion",
    "ContiguousExpectation",
    "ContiguousReaderTB",
    "ContiguousScoreboard",
    "CorruptModelBase",
    "Corruption",
    "CoverageSubscriber",
    "Covergroups",
    "DescriptorControl",
    "DutBinding",
    "ErrorBits",
    "Expectation",
    "JobDriver",
    "JobResult",
    "JobScoreboard",
    "Knobs",
    "PERIOD_NS",
    "PinControl",
    "ReaderEnv",
    "ReaderItem",
    "ReaderSeqBase",
    "ReaderTB",
    "ReaderTestBase",
    "RegisterControl",
    "RegisterTestBase",
    "ResetPin",
    "STALLS",
    "ScoreboardSelfTestBase",
    "SmallJobs",
    "UnitCut",
    "bus_problems",
    "config_value",
    "count_from_env",
    "cut_units",
    "declare_register_test",
    "declare_scoreboard_selftests",
    "declare_sequence_tests",
    "descriptor_words",
    "error_bit_corruption",
    "error_bits",
    "field_corruption",
    "flip_byte",
    "flip_user",
    "hang_problems",
    "hex_bytes",
    "job_fields",
    "job_points",
    "job_problems",
    "random_knobs",
    "regression_seed",
    "reproduce_command",
    "reset_problems",
    "sent_problems",
    "sideband_problems",
    "status_problems",
    "unit_rows",
    "unit_stream_problems",
]
