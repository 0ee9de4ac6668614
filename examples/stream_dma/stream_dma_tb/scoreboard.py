"""stream_dma's checks: the library's for a job of one byte range (its bytes realigned to lane 0 of its transfers
against the memory, only its last transfer short, its reads and its stream under the protocol checkers), with TUSER,
the error flag, clear. Its status (tag, error) is checked by the platform (the binding's ``status``)."""

from __future__ import annotations

from dlaverif.platform import ContiguousScoreboard


class RealignedScoreboard(ContiguousScoreboard):
    user_means = "the error flag"
