"""Analysis ports for the shared agents: a monitor publishes, any number of subscribers listen.

The agents of ``tb/agents`` are plain Python objects (so that a short directed cocotb test and a pyuvm env use the
very same agents), but they publish the UVM way (IEEE 1800.2 section 12.2.8): :meth:`AnalysisPort.write` broadcasts
a transaction to every connected subscriber, in connection order, and returns at once. A subscriber is anything
with a ``write(t)`` method: a pyuvm ``uvm_subscriber.analysis_export``, a ``uvm_tlm_analysis_fifo.analysis_export``,
a checker of ``tb/checkers``, or a :class:`JobLog`.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any, Callable, Iterator, Protocol

import numpy as np


class Subscriber(Protocol):
    def write(self, t: Any) -> None: ...


class AnalysisPort:
    """Broadcast port: ``connect(subscriber)``, then every ``write(t)`` reaches each subscriber.

    A monitor writes once per bus transfer, so ``write`` is rebound at each ``connect``: with no subscriber it does
    nothing, with one it *is* that subscriber's ``write`` (a :class:`JobLog` list's ``append``: no Python frame
    per transaction), with several it calls them in connection order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.subscribers: list[Subscriber] = []
        self.write: Callable[[Any], None] = _drop

    def connect(self, subscriber: Subscriber) -> None:
        if not callable(getattr(subscriber, "write", None)):
            raise TypeError(f"{self.name}: {subscriber!r} has no write() method")
        self.subscribers.append(subscriber)
        writes = tuple(s.write for s in self.subscribers)
        if len(writes) == 1:
            self.write = writes[0]
        else:

            def broadcast(t: Any) -> None:
                for w in writes:
                    w(t)

            self.write = broadcast

    def __repr__(self) -> str:
        return f"AnalysisPort({self.name!r}, {len(self.subscribers)} subscriber(s))"


class Batch:
    """Many transactions of one kind published in one ``write``, held as columns (numpy arrays).

    The fast path (``dlaverif/fastpath/harness.py``) publishes a whole job's R beats or stream transfers this way
    instead of one object per beat: building 131,072 objects for a 4 MiB cube cost more than simulating it. A batch is a
    read-only sequence of the transaction objects (``len``, indexing, slicing, iteration build them on access), so a
    subscriber written for single transactions still works; hot consumers use the columns directly
    (:func:`dlaverif.agents.stream.payload`). Subclasses give ``_row(i)`` (one object) and ``_rows(idx)`` (a batch of
    the rows ``idx``, an int64 index array)."""

    def __len__(self) -> int:
        raise NotImplementedError

    def _row(self, i: int) -> Any:
        raise NotImplementedError

    def _rows(self, idx: np.ndarray) -> "Batch":
        raise NotImplementedError

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self._rows(np.arange(len(self), dtype=np.int64)[i])
        n = len(self)
        i = int(i)
        if not -n <= i < n:
            raise IndexError(f"transaction {i} of a batch of {n}")
        return self._row(i % n)

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self._row(i)

    def __eq__(self, other: object) -> bool:
        seq: Any = other  # compared as a sequence: anything else raises TypeError (below)
        try:
            return len(self) == len(seq) and all(a == b for a, b in zip(self, seq))
        except TypeError:
            return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} transactions)"


def merged(items: list) -> Any:
    """One job's observations of a port: the list as published, except that batches are kept whole when they
    are all there is (one batch: returned as is) and spliced into the list otherwise."""
    if not any(map(isinstance, items, repeat(Batch))):  # (C-level loop: a job may publish 10^5 transactions)
        return items
    if len(items) == 1:
        return items[0]
    return [x for t in items for x in (t if isinstance(t, Batch) else (t,))]


def _drop(t: Any) -> None:
    """``AnalysisPort.write`` with nobody listening."""


class _Sink:
    """A subscriber whose ``write`` is a list's ``append``."""

    __slots__ = ("write",)

    def __init__(self, items: list) -> None:
        self.write = items.append


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
        port.connect(_Sink(self._lists.setdefault(name, [])))

    def __getitem__(self, name: str) -> Any:
        return merged(list(self._lists[name]))

    def count(self, name: str) -> int:
        """How many transactions ``name`` holds (a batch counts its rows), without building them."""
        return sum(len(t) if isinstance(t, Batch) else 1 for t in self._lists[name])

    def take(self) -> dict[str, Any]:
        """Everything published since the last take, per name (a list, or a :class:`Batch` on the fast path)."""
        out = {}
        for k, items in self._lists.items():  # the lists stay bound to the ports: copied, then emptied
            out[k] = merged(items[:])
            items.clear()
        return out
