"""What the platform knows of a DUT, as data: a :class:`DutBinding` (a DUT binding, not a DUT).

A binding names the DUT's clock and reset (and the reset's polarity), the prefix of its AXI4 read master (the
widths are read from the DUT's ports by the memory agent), the prefix(es) of its AXI4-Stream output(s), how a job
starts and ends (its :data:`Control`), and what its completion signal means (:class:`Completion`):

* :class:`RegisterControl`: a register block from an ``.rdl`` over AXI4-Lite (our three readers): START and DONE
  are the map's ``ctrl_start`` / ``status_done`` bits, the status set its RO registers, DONE also on an irq pin;
* :class:`DescriptorControl`: a descriptor stream on a valid/ready port, its payload's fields as named ports,
  several jobs in flight up to ``queue_depth`` (the bench's limit; the DUT's ``ready`` is the handshake), or up to
  the DUT's own capacity (:attr:`DutBinding.capacity`, from its parameters) when the run's ``IN_FLIGHT`` says so;
* :class:`PinControl`: a start pin and a done pin, one job at a time;
* :class:`CsbControl`: NVDLA's configuration space bus, two register groups (:mod:`dlaverif.agents.nvdla.csb`).

Each block declares its binding once (``tb/<block>/env.py``; our three readers through
:mod:`blocks.binding`, the convention of ``blocks/rtl/``); the TB builds its agents from it and nothing else.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Union

#: the clock period every bench drives (ns); the fast path's HDL wrapper generates the same
PERIOD_NS = 10


class Completion(enum.Enum):
    """What a DUT's completion signal (DONE, irq, a done pulse) means for the output of its job.

    * ``DRAINED``: every output transfer of the job was delivered before (or in the cycle of) the completion; a
      transfer of the job after it is a protocol error.
    * ``ISSUED``: the DUT only issued the job's work; the platform closes the job at its last transfer (TLAST, or
      a transfer count, or the tag of the next job), and only a transfer after that is a protocol error.
    """

    DRAINED = "drained"
    ISSUED = "issued"


@dataclass(frozen=True)
class ResetPin:
    """A synchronous reset port and its polarity."""

    name: str
    active_high: bool = True

    @property
    def asserted(self) -> int:
        """The level that holds the DUT in reset."""
        return 1 if self.active_high else 0


@dataclass(frozen=True)
class RegisterControl:
    """Jobs through a register block over AXI4-Lite: ``regs`` is the block's register model (a
    :class:`blocks.regmap.BlockMap` loaded from its ``.rdl``: offsets, ``ctrl_start``, ``status_done``, the status set),
    ``irq`` the DONE pin (``None``: STATUS is polled)."""

    prefix: str
    regs: Any
    irq: Union[str, None]


@dataclass(frozen=True)
class DescriptorControl:
    """Jobs as descriptors on a valid/ready port: ``<prefix>_<valid>``, ``<prefix>_<ready>`` and one port per
    payload field (``fields``: field name -> port name); ``done`` names the completion pulse (one cycle per job, in
    job order); ``queue_depth`` bounds the jobs the bench keeps in flight (issued, not yet closed);
    ``stream_tag``: the payload field the output stream carries in TUSER, when it does (the output is then paired
    with its job by that tag, so jobs may interleave; otherwise in job order); ``status``: the completion's payload
    (status field name -> port, sampled in the cycle of each completion pulse and checked per job against
    :meth:`dlaverif.platform.tb.ReaderTB.status`: by default a field of the same name in the job's payload, e.g. its
    tag, and 0 for every other, e.g. an error flag); ``stream_fields``: the output stream's sidebands that return a
    payload field (sideband name after the stream's prefix -> field, e.g. ``(("tid", "tid"), ("tdest", "dest"))``):
    every transfer of a job must carry the job's value (AMBA AXI4-Stream: TID and TDEST name the stream a transfer
    belongs to and where it goes). ``queue_depth`` gives way to the DUT's own capacity (:attr:`DutBinding.capacity`)
    when the run's ``IN_FLIGHT`` is ``capacity``."""

    valid: str
    ready: str
    fields: tuple[tuple[str, str], ...]
    done: str
    queue_depth: int = 4
    stream_tag: Optional[str] = None
    status: tuple[tuple[str, str], ...] = ()
    stream_fields: tuple[tuple[str, str], ...] = ()

    def port(self, name: str) -> str:
        """The port of payload field ``name``."""
        return dict(self.fields)[name]


@dataclass(frozen=True)
class PinControl:
    """Jobs started by a one-cycle pulse on ``start`` with the payload on its field ports (``fields``: field name ->
    port name, held until the next job), ended by a one-cycle pulse on ``done``; one job at a time."""

    start: str
    done: str
    fields: tuple[tuple[str, str], ...] = ()


class RegisterMap(Protocol):
    """What a control style needs of a register description (e.g. :class:`dlaverif.thirdparty.nvdla_rdl.RdlMap`)."""

    def address(self, reg: str) -> int:
        """The register's byte address."""

    def value(self, reg: str, **fields: int) -> int:
        """The register's value with these fields (the others 0)."""


@dataclass(frozen=True)
class CsbControl:
    """Jobs through NVDLA's CSB: ``req`` / ``resp`` the port prefixes; ``regs`` loads the client's register map
    (from its ``.rdl``; called once per TB); ``enable`` (register, field) starts the programmed group, written last;
    ``pointer`` (register, field) selects the group the writes go to; ``done`` the one-cycle pulse at a job's end, a
    port or an internal signal (a dotted path below the top: :meth:`DutBinding.signal`); ``groups`` the register
    groups (jobs in flight)."""

    req: str
    resp: str
    regs: Callable[[], RegisterMap]
    enable: tuple[str, str]
    pointer: tuple[str, str]
    done: str
    groups: int = 2


Control = Union[RegisterControl, DescriptorControl, PinControl, CsbControl]


@dataclass(frozen=True)
class DutBinding:
    """Everything the platform needs to know about one reader DUT (module docstring). Every port name is the DUT's
    to give: the platform assumes no naming convention (this project's readers bind through
    :func:`blocks.binding.register_reader`)."""

    control: Control
    clock: str
    reset: ResetPin
    axi_master: str
    streams: tuple[str, ...]
    completion: Completion = Completion.DRAINED
    period_ns: int = PERIOD_NS
    #: input ports the platform drives to a constant from before reset to the end of the test (port name -> value):
    #: an enable, a mode pin, the descriptor fields the jobs do not use (else they float to X on Icarus)
    ties: tuple[tuple[str, int], ...] = ()
    #: the backend of a DUT whose memory and output are not AXI4 / AXI4-Stream: ``backend(dut, binding)`` (e.g.
    #: :meth:`dlaverif.agents.nvdla.dma_read.NvdlaBackend.of`); None: the default AXI agents or the fast path
    backend: Optional[Callable[[Any, "DutBinding"], Any]] = None
    #: the jobs the DUT itself holds at once, its queues full, as a function of its top-level parameters
    #: (``lambda p: p.SLOTS + 1``: ``p.<NAME>`` is the DUT's parameter as an integer, read through cocotb on Verilator
    #: and Icarus alike, :class:`dlaverif.platform.control_pipelined.DutParameters`); a descriptor port's bench keeps
    #: that many in flight instead of its ``queue_depth`` when the run's ``IN_FLIGHT`` is ``capacity``, so that a
    #: configuration that moves a depth fills it (None: the DUT declares none)
    capacity: Optional[Callable[[Any], int]] = None

    @property
    def stream(self) -> str:
        """The output stream's prefix (the platform checks one stream per DUT today)."""
        if len(self.streams) != 1:
            raise NotImplementedError(f"{len(self.streams)} output streams: the platform checks one per DUT")
        return self.streams[0]

    def signal(self, dut, name: str) -> Any:
        """The DUT's port ``name``, or its internal signal when ``name`` is a dotted path below the top
        (``u_eg.dp_done``: the hierarchical handle); a readable error naming the binding when it has none (Verilator
        shows an internal signal only when the RTL marks it ``/*verilator public*/``)."""
        handle = dut
        for part in name.split("."):
            try:
                handle = getattr(handle, part)
            except AttributeError:
                what = "signal" if "." in name else "port"
                hint = " (an internal signal: Verilator shows it with --public-flat-rw or /*verilator public*/)"
                hint = hint if "." in name else ""
                raise AttributeError(
                    f"the binding names {what} {name!r}, which the DUT {dut._name} does not have{hint}"
                ) from None
        return handle
