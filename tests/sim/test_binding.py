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
    # backend: a factory, not a port; ties: none unless the binding names its ports; capacity: a function of parameters
    assert defaulted == {"completion", "period_ns", "backend", "ties", "capacity"}, defaulted
    assert DutBinding(ctl, "clk", ResetPin("rst"), "m", ("s",)).ties == ()


class _Param:
    def __init__(self, value: int) -> None:
        self.value = value


@pytest.mark.parametrize(
    "env, want",
    [
        ({}, (3, False)),  # unset: the binding's queue_depth, whatever the DUT holds
        ({"IN_FLIGHT": ""}, (3, False)),
        ({"IN_FLIGHT": "capacity"}, (9, True)),  # SLOTS 8 queued behind the one being read
    ],
)
def test_in_flight_is_the_queue_depth_unless_the_run_asks_for_the_duts_capacity(monkeypatch, env, want):
    from dlaverif.platform.control_pipelined import in_flight

    monkeypatch.delenv("IN_FLIGHT", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    ctl = DescriptorControl("v", "r", (("addr", "a"),), "done", queue_depth=3)
    dut = types.SimpleNamespace(_name="desc_reader", SLOTS=_Param(8))
    assert in_flight(dut, ctl, lambda p: p.SLOTS + 1) == want


@pytest.mark.parametrize(
    "value, capacity, said",
    [
        ("full", lambda p: 4, "IN_FLIGHT=full: expected capacity (or leave it unset)"),
        ("capacity", None, "IN_FLIGHT=capacity: the binding declares no capacity (DutBinding.capacity)"),
        ("capacity", lambda p: p.SLOT + 1, "the DUT desc_reader has no parameter SLOT"),
        (
            "capacity",
            lambda p: p.SLOTS - 8,
            "IN_FLIGHT=capacity: the binding's capacity at this DUT is 0, not 1 or more",
        ),
    ],
)
def test_a_bad_in_flight_or_capacity_is_refused_in_one_line(monkeypatch, value, capacity, said):
    from dlaverif.platform.control_pipelined import in_flight

    monkeypatch.setenv("IN_FLIGHT", value)
    ctl = DescriptorControl("v", "r", (("addr", "a"),), "done", queue_depth=3)
    dut = types.SimpleNamespace(_name="desc_reader", SLOTS=_Param(8))
    with pytest.raises((ValueError, AttributeError)) as err:
        in_flight(dut, ctl, capacity)
    assert str(err.value) == said
