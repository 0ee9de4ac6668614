"""models.core.arith and models.core.fp16: the one helper of each small job."""

import numpy as np
import pytest

from dlaverif.models import FormatError
from dlaverif.models.core.arith import as_bytes, ceil_div, round_up
from dlaverif.models.core.fp16 import fp16_classes


@pytest.mark.parametrize(
    "a, b, q, r",
    [
        (0, 4, 0, 0),
        (1, 4, 1, 4),
        (4, 4, 1, 4),
        (5, 4, 2, 8),
        (33, 32, 2, 64),
        (2**80 + 1, 2**40, 2**40 + 1, 2**80 + 2**40),
        (10**30, 3, 333333333333333333333333333334, 10**30 + 2),
    ],
)
def test_ceil_div_and_round_up_are_exact(a, b, q, r):
    assert ceil_div(a, b) == q and round_up(a, b) == r
    assert type(ceil_div(np.int64(a % 2**62), b)) is int


def test_as_bytes_of_every_container():
    assert as_bytes(b"\x01\x02") == b"\x01\x02"
    assert as_bytes(bytearray(b"\x03")) == b"\x03"
    assert as_bytes(memoryview(b"\x01\x02\x03\x04")[::2]) == b"\x01\x03"
    assert as_bytes(np.array([0x0102], "<u2")) == b"\x02\x01"
    assert as_bytes(np.array([0x0102], ">u2")) == b"\x01\x02"  # as stored: the dtype's byte order
    x = np.array([[1, 2], [3, 4]], np.uint8)
    assert as_bytes(np.asfortranarray(x)) == b"\x01\x02\x03\x04"  # logical C order
    assert as_bytes(x[:, ::-1]) == b"\x02\x01\x04\x03"
    for bad in ([1, 2], "ab", None, np.array([object()])):
        with pytest.raises(FormatError):
            as_bytes(bad)


def test_fp16_classes_by_hand():
    bits = np.array([0x7C00, 0xFC00, 0x7C01, 0xFE00, 0x7BFF, 0x0000, 0x8000, 0x0001, 0x3C00], np.uint16)
    nan, inf = fp16_classes(bits)
    assert nan.tolist() == [False, False, True, True, False, False, False, False, False]
    assert inf.tolist() == [True, True, False, False, False, False, False, False, False]
    assert [m.tolist() for m in fp16_classes(bits.view(np.float16))] == [nan.tolist(), inf.tolist()]
