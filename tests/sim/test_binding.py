"""The DUT binding as data (dlaverif.platform.binding), without a simulator: the project's reader convention, the
descriptor port's fields, one stream per DUT, and a readable error for a port the DUT lacks."""

from __future__ import annotations

import dataclasses
import types

import pytest

from blocks.binding import register_reader
from blocks.regmap import CUBE_READER
from dlaverif.platform.binding import (
    Completion,
    DescriptorControl,
    DutBinding,
    PinControl,
    RegisterControl,
    ResetPin,
)


def test_our_readers_bind_by_the_project_convention():
    b = register_reader(CUBE_READER)
    assert (b.clock, b.reset, b.axi_master, b.stream, b.completion) == (
        "clk",
        ResetPin("rst", True),
        "m_axi",
        "m_axis",
        Completion.DRAINED,
    )
    assert b.control == RegisterControl("s_axil", CUBE_READER, "irq")
    assert (ResetPin("rst").asserted, ResetPin("aresetn", active_high=False).asserted) == (1, 0)


def test_a_descriptor_binding_names_its_field_ports_and_a_port_the_dut_lacks_is_named():
    ctl = DescriptorControl("cmd_valid", "cmd_ready", (("addr", "cmd_addr"), ("len", "cmd_len")), "done_pulse")
    b = DutBinding(
        ctl, "aclk", ResetPin("aresetn", False), "rd", streams=("out_a", "out_b"), completion=Completion.ISSUED
    )
    assert ctl.port("len") == "cmd_len" and ctl.queue_depth == 4
    with pytest.raises(NotImplementedError, match="2 output streams"):
        _ = b.stream
    dut = types.SimpleNamespace(_name="dma", aclk=object())
    assert b.signal(dut, "aclk") is dut.aclk
    with pytest.raises(AttributeError, match="the binding names port 'cmd_valid', which the DUT dma does not have"):
        b.signal(dut, "cmd_valid")
    with pytest.raises(dataclasses.FrozenInstanceError):  # frozen: a binding is data, not a place to keep state
        b.clock = "clk"


def test_the_platform_assumes_no_port_names():
    """Every port of a binding is the DUT's to give: no field of the platform's binding defaults to a port name."""
    ctl = PinControl("go", "fin")
    with pytest.raises(TypeError, match="missing 4 required positional arguments: 'clock', 'reset', 'axi_master'"):
        DutBinding(ctl)
    with pytest.raises(TypeError, match="name"):
        ResetPin()
    with pytest.raises(TypeError, match="irq"):
        RegisterControl("csr", CUBE_READER)
    defaulted = {f.name for f in dataclasses.fields(DutBinding) if f.default is not dataclasses.MISSING}
    # backend: a factory, not a port; ties: none unless the binding names its ports
    assert defaulted == {"completion", "period_ns", "backend", "ties"}, defaulted
    assert DutBinding(ctl, "clk", ResetPin("rst"), "m", ("s",)).ties == ()
