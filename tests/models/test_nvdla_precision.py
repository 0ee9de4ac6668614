"""models.nvdla.precision: Tables 29-32 transcribed from the seed, the fp16 rules of clarifications 9 against an
exact nearest-value oracle, the integer rounding/saturation of the converters."""

import bisect
from fractions import Fraction
from math import floor

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif.models import FormatError
from dlaverif.models.nvdla import precision as P

# every finite non-negative fp16 value, in increasing order (index == bit pattern)
_POS = np.arange(0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64).tolist()


def fp16_oracle(v):
    """Nearest fp16 by exact rational comparison, ties to the even bit pattern, |v| >= 65504 -> +-65504."""
    v = Fraction(v)
    a = abs(v)
    sign = -1.0 if v < 0 else 1.0
    if a >= 65504:
        return sign * 65504.0
    i = bisect.bisect_right(_POS, a) - 1  # _POS[i] <= a < _POS[i+1]
    lo, hi = Fraction(_POS[i]), Fraction(_POS[i + 1])
    if a - lo < hi - a or (a - lo == hi - a and i % 2 == 0):
        return sign * _POS[i]
    return sign * _POS[i + 1]


INV = "invalid"  # a combination the tables mark invalid
# (layer, input, output) -> pipeline precision, transcribed from Tables 29-32 (missing rows: see module docstring)
TABLES = {
    ("conv", "image_int", "int8"): "int8",
    ("conv", "image_int", "int16"): "int16",
    ("conv", "image_int", "fp16"): "fp16",
    ("conv", "image_fp16", "int8"): INV,
    ("conv", "image_fp16", "int16"): INV,
    ("conv", "image_fp16", "fp16"): "fp16",
    ("conv", "int8", "int8"): "int8",
    ("conv", "int8", "int16"): INV,
    ("conv", "int8", "fp16"): INV,
    ("conv", "int16", "int8"): INV,
    ("conv", "int16", "int16"): "int16",
    ("conv", "int16", "fp16"): INV,
    ("conv", "fp16", "int8"): INV,
    ("conv", "fp16", "int16"): INV,
    ("conv", "fp16", "fp16"): "fp16",
    ("sdp", "int8", "int8"): "int32",
    ("sdp", "int8", "int16"): "int32",
    ("sdp", "int8", "fp16"): INV,
    ("sdp", "int16", "int8"): "int32",
    ("sdp", "int16", "int16"): "int32",
    ("sdp", "int16", "fp16"): "int32",
    ("sdp", "fp16", "int8"): INV,
    ("sdp", "fp16", "int16"): "fp32",
    ("sdp", "fp16", "fp16"): "fp32",
    ("lrn", "int8", "int8"): "int8",
    ("lrn", "int8", "int16"): INV,
    ("lrn", "int8", "fp16"): INV,
    ("lrn", "int16", "int8"): INV,
    ("lrn", "int16", "int16"): "int16",
    ("lrn", "int16", "fp16"): INV,
    ("lrn", "fp16", "int8"): INV,
    ("lrn", "fp16", "int16"): INV,
    ("lrn", "fp16", "fp16"): "fp16",
    ("pooling", "int8", "int8"): "int8",
    ("pooling", "int8", "int16"): INV,
    ("pooling", "int8", "fp16"): INV,
    ("pooling", "int16", "int8"): INV,
    ("pooling", "int16", "int16"): "int16",
    ("pooling", "int16", "fp16"): INV,
    ("pooling", "fp16", "int8"): INV,
    ("pooling", "fp16", "int16"): INV,
    ("pooling", "fp16", "fp16"): "fp16",
}


@pytest.mark.parametrize("key", sorted(TABLES))
def test_tables_29_to_32(key):
    layer, inp, out = key
    assert P.pipeline_precision(layer, inp, out) == TABLES[key]
    if TABLES[key] == INV:
        with pytest.raises(FormatError) as exc:
            P.check_conversion(layer, inp, out)
        assert exc.value.rule == "precision.invalid_conversion"
    else:
        assert P.check_conversion(layer, inp, out) == TABLES[key]


def test_conv_weight_precision_column_and_aliases():
    assert P.weight_precision("image_uint8", "int16") == "int16"
    assert P.weight_precision("int16 feature", "int8") == INV
    assert P.pipeline_precision("dc", "float16", "half") == "fp16"
    assert P.pipeline_precision("pdp", "int8 feature data", "int8") == "int8"
    assert P.pipeline_precision("cdp", "int16", "int16") == "int16"


@pytest.mark.parametrize("layer", ["sdp", "lrn", "pooling"])
def test_image_input_is_for_convolution_only(layer):
    assert P.pipeline_precision(layer, "image_int", "int8") == INV


def test_pixel_format_names_as_inputs():
    assert P.pipeline_precision("conv", "T_A8R8G8B8", "fp16") == "fp16"
    assert P.pipeline_precision("conv", "T_A2B10G10R10", "int8") == "int8"
    assert P.pipeline_precision("conv", "nvdla.pixel.T_R16_F", "int16") == INV
    assert P.pipeline_precision("conv", "T_A16Y16U16V16_F", "fp16") == "fp16"


@pytest.mark.parametrize(
    "call, rule",
    [
        (lambda: P.pipeline_precision("fc", "int8", "int8"), "precision.unknown_layer"),
        (lambda: P.pipeline_precision("conv", "int4", "int8"), "precision.unknown_input"),
        (lambda: P.pipeline_precision("conv", "T_NOPE", "int8"), "precision.unknown_input"),
        (lambda: P.pipeline_precision("conv", "int8", "int32"), "precision.unknown"),
    ],
)
def test_unknown_names_raise(call, rule):
    with pytest.raises(FormatError) as exc:
        call()
    assert exc.value.rule == rule


def test_saturation_values_of_the_seed():
    assert P.SATURATION["int8"] == (-128, 127)
    assert P.SATURATION["int16"] == (-32768, 32767)
    assert P.SATURATION["fp16"] == (-65504.0, 65504.0)
    assert P.saturate(np.array([-1000, 5, 1000]), "int8").tolist() == [-128, 5, 127]


def test_inf_values_derive_from_internal_maxima():
    assert P.INF_REPLACEMENT["sdp"] == pytest.approx(3.40282e38, rel=1e-5)  # seed's printed value
    assert P.INF_REPLACEMENT["sdp"] == float(np.float32((2 - 2**-23) * 2.0**127))
    assert P.INF_REPLACEMENT["cdp"] == (2 - 2**-10) * 2**31  # fp17 max


@pytest.mark.parametrize(
    "sub, value",
    [
        ("conv_dc", 65536.0),
        ("conv_img", 65536.0),
        ("conv_winograd", 65504.0),
        ("sdp", 3.4028234663852886e38),
        ("cdp", 4292870144.0),
        ("pdp_average", 4292870144.0),
        ("pdp_max", np.inf),
    ],
)
def test_inf_replacement_per_submodule(sub, value):
    assert P.INF_REPLACEMENT[sub] == value
    x = np.array([np.inf, -np.inf, 1.5, 6e-8], np.float16)
    y = P.replace_inf(x, sub)
    assert y[0] == value and y[1] == -value
    assert y[2] == 1.5 and y[3] == float(np.float16(6e-8))  # denormal exact
    assert np.isnan(P.replace_inf(np.array([np.nan], np.float16), sub)[0])


@pytest.mark.parametrize(
    "value, expect",
    [
        (65519, 65504.0),
        (65520, 65504.0),
        (1e10, 65504.0),
        (-1e10, -65504.0),
        (np.inf, 65504.0),
        (-np.inf, -65504.0),
        (2049, 2048.0),
        (2051, 2052.0),
        (2**-24, 2**-24),
        (2**-25, 0.0),
        (3 * 2**-25, 2**-23),
        (1 + 2**-11, 1.0),
        (1 + 3 * 2**-11, 1 + 2**-9),
    ],
)
def test_to_fp16_rne_saturation_denormals(value, expect):
    y = P.to_fp16(np.array([value], np.float64))
    assert y.dtype == np.float16 and float(y[0]) == expect and not np.isinf(y).any()


def test_to_fp16_keeps_nan_and_int_to_fp16_examples():
    assert np.isnan(P.to_fp16(np.array([np.nan]))[0])
    assert P.int_to_fp16(np.array([65519, 65520, -65520, 2049, 2051])).tolist() == [65504, 65504, -65504, 2048, 2052]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(-1e6, 1e6, allow_nan=False), st.floats(-1e-4, 1e-4, allow_nan=False), st.integers(-200000, 200000)
        ),
        min_size=1,
        max_size=20,
    )
)
def test_to_fp16_matches_exact_oracle(values):
    y = P.to_fp16(np.array(values, dtype=np.float64))
    assert [float(v) for v in y] == [fp16_oracle(float(v)) for v in values]


def test_nan_inf_detection_counting_and_flush():
    bits = np.array([0x7C01, 0x7C00, 0xFC00, 0x7E00, 0xFFFF, 0x0001, 0x8000, 0x3C00, 0x7BFF], np.uint16)
    assert P.is_nan(bits).tolist() == [True, False, False, True, True, False, False, False, False]
    assert P.is_inf(bits).tolist() == [False, True, True, False, False, False, False, False, False]
    assert P.is_denormal(bits).tolist() == [False, False, False, False, False, True, False, False, False]
    assert P.count_nan(bits) == 3 and P.count_inf(bits) == 2
    flushed = P.flush_nan_to_zero(bits)
    assert flushed.tolist() == [0, 0x7C00, 0xFC00, 0, 0, 0x0001, 0x8000, 0x3C00, 0x7BFF]
    as_half = P.flush_nan_to_zero(bits.view(np.float16))
    assert as_half.dtype == np.float16 and as_half.view(np.uint16).tolist() == flushed.tolist()
    assert P.count_nan(bits.view(np.float16)) == 3
    with pytest.raises(FormatError) as exc:
        P.count_nan(np.zeros(3, np.float32))
    assert exc.value.rule == "fp16.dtype"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=10), st.integers(0, 45))
def test_round_shift_is_round_half_away_from_zero(values, shift):
    got = P.round_shift(np.array(values, np.int64), shift).tolist()
    want = []
    for v in values:
        q = Fraction(v, 2**shift)
        want.append(floor(abs(q) + Fraction(1, 2)) * (1 if q >= 0 else -1))
    assert got == want


def test_round_shift_examples_and_range():
    assert P.round_shift(np.array([6, -6, 5, -5, 7]), 2).tolist() == [2, -2, 1, -1, 2]
    with pytest.raises(FormatError) as exc:
        P.round_shift(np.array([1]), 64)
    assert exc.value.rule == "precision.shift_range"
