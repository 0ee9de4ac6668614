"""Analysis ports for the shared agents: a monitor publishes, any number of subscribers listen.

The agents of ``tb/agents`` are plain Python objects (so that a short directed cocotb test and a pyuvm env use the
very same agents), but they publish the UVM way (IEEE 1800.2 section 12.2.8): :meth:`AnalysisPort.write` broadcasts
a transaction to every connected subscriber, in connection order, and returns at once. A subscriber is anything
with a ``write(t)`` method: a pyuvm ``uvm_subscriber.analysis_export``, a ``uvm_tlm_analysis_fifo.analysis_export``,
a checker of ``tb/checkers``, or a :class:`JobLog`.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol


class Subscriber(Protocol):
    def write(self, t: Any) -> None: ...


class AnalysisPort:
    """Broadcast port: ``connect(subscriber)``, then every ``write(t)`` reaches each subscriber."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.subscribers: list[Subscriber] = []

    def connect(self, subscriber: Subscriber) -> None:
        if not callable(getattr(subscriber, "write", None)):
            raise TypeError(f"{self.name}: {subscriber!r} has no write() method")
        self.subscribers.append(subscriber)

    def write(self, t: Any) -> None:
        for s in self.subscribers:
            s.write(t)

    def __repr__(self) -> str:
        return f"AnalysisPort({self.name!r}, {len(self.subscribers)} subscriber(s))"


class _Sink:
    __slots__ = ("append",)

    def __init__(self, append: Callable[[Any], None]) -> None:
        self.append = append

    def write(self, t: Any) -> None:
        self.append(t)


class JobLog:
    """Keeps what named ports published since the last :meth:`take` (one job's observations).

    ``log = JobLog(ar=mem.ar_ap, r=mem.r_ap, out=stream.ap)``; after the job, ``log.take()`` returns
    ``{"ar": [...], "r": [...], "out": [...]}`` and starts afresh.
    """

    def __init__(self, **ports: AnalysisPort) -> None:
        self._lists: dict[str, list] = {}
        for name, port in ports.items():
            self.listen(name, port)

    def listen(self, name: str, port: AnalysisPort) -> None:
        """Keep what ``port`` publishes under ``name`` (several ports may share a name)."""
        self._lists.setdefault(name, [])
        port.connect(_Sink(lambda t, name=name: self._lists[name].append(t)))

    def __getitem__(self, name: str) -> list:
        return self._lists[name]

    def take(self) -> dict[str, list]:
        out = self._lists
        self._lists = {k: [] for k in out}
        return out
