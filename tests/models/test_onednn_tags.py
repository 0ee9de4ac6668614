"""oneDNN format tags: the generic parser against oneDNN's own tag aliases and malformed tags."""

import pytest
from hypothesis import given, settings

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.onednn import MemoryDesc, parse_tag

from .onednn_helpers import abc_tags

# Facts from oneDNN's dnnl_types.h: each named tag is an alias of this domain-agnostic tag.
ONEDNN_ALIASES = [
    ("x", "a"),
    ("nc", "ab"),
    ("cn", "ba"),
    ("tn", "ab"),
    ("nt", "ba"),
    ("ncw", "abc"),
    ("nwc", "acb"),
    ("nchw", "abcd"),
    ("nhwc", "acdb"),
    ("chwn", "bcda"),
    ("ncdhw", "abcde"),
    ("ndhwc", "acdeb"),
    ("oi", "ab"),
    ("io", "ba"),
    ("oiw", "abc"),
    ("owi", "acb"),
    ("wio", "cba"),
    ("iwo", "bca"),
    ("oihw", "abcd"),
    ("hwio", "cdba"),
    ("ohwi", "acdb"),
    ("ihwo", "bcda"),
    ("iohw", "bacd"),
    ("oidhw", "abcde"),
    ("dhwio", "cdeba"),
    ("goiw", "abcd"),
    ("wigo", "dcab"),
    ("goihw", "abcde"),
    ("hwigo", "decab"),
    ("giohw", "acbde"),
    ("goidhw", "abcdef"),
    ("dhwigo", "defcab"),
    ("tnc", "abc"),
    ("ntc", "bac"),
    ("ldnc", "abcd"),
    ("ldigo", "abcde"),
    ("ldgoi", "abdec"),
    ("ldio", "abcd"),
    ("ldoi", "abdc"),
    ("ldgo", "abcd"),
    ("nCdhw16c", "aBcde16b"),
    ("nChw8c", "aBcd8b"),
    ("nChw16c", "aBcd16b"),
    ("nChw4c", "aBcd4b"),
    ("nCw8c", "aBc8b"),
    ("NChw16n16c", "ABcd16a16b"),
    ("NCw32n32c", "ABc32a32b"),
    ("OIhw16i16o", "ABcd16b16a"),
    ("OIhw16o16i", "ABcd16a16b"),
    ("OIhw4i16o4i", "ABcd4b16a4b"),
    ("OIw4i16o4i", "ABc4b16a4b"),
    ("OI8i16o2i", "AB8b16a2b"),
    ("Ohwi16o", "Acdb16a"),
    ("Oihw16o", "Abcd16a"),
    ("OhwI16o4i", "AcdB16a4b"),
    ("IOhw16i16o", "BAcd16b16a"),
    ("IhwO8i4o", "BcdA8b4a"),
    ("gOIhw16i16o", "aBCde16c16b"),
    ("Goidhw16g", "Abcdef16a"),
    ("gOhwi32o", "aBdec32b"),
]


@pytest.mark.parametrize("tag, abc", ONEDNN_ALIASES)
def test_named_tag_is_the_onednn_alias(tag, abc):
    assert parse_tag(tag).abc == abc


@pytest.mark.parametrize("tag, abc", [(t, a) for t, a in ONEDNN_ALIASES if any(c.isdigit() for c in t)][:8])
def test_alias_pairs_give_identical_descriptors(tag, abc):
    dims = (3, 17, 5, 2, 3, 2)[: parse_tag(tag).ndims]
    a, b = MemoryDesc.from_tag(dims, "f32", tag), MemoryDesc.from_tag(dims, "f32", abc)
    assert (a.padded_dims, a.strides, a.inner_blks, a.inner_idxs, a.size) == (
        b.padded_dims,
        b.strides,
        b.inner_blks,
        b.inner_idxs,
        b.size,
    )


@pytest.mark.parametrize(
    "tag, axes",
    [
        ("nchw", "NCHW"),
        ("chwn", "NCHW"),
        ("nhwc", "NCHW"),
        ("nChw8c", "NCHW"),
        ("nCdhw16c", "NCDHW"),
        ("goihw", "GOIHW"),
        ("OIhw4i16o4i", "OIHW"),
        ("hwigo", "GOIHW"),
        ("abcd", "ABCD"),
        ("ba", "AB"),
        ("aBcd8b", "ABCD"),
        ("ntc", "TNC"),
        ("ldgoi", "LDIGO"),
        ("x", "X"),
    ],
)
def test_axes_are_the_logical_dims_in_onednn_order(tag, axes):
    assert "".join(parse_tag(tag).axes) == axes
    assert "".join(models.get_format("onednn." + tag).axes) == axes


def test_double_blocking_nests_in_written_order():
    pt = parse_tag("OIhw4i16o4i")
    assert pt.inner_blks == (4, 16, 4) and pt.inner_idxs == (1, 0, 1)  # O = dim 0, I = dim 1
    assert pt.outer == (0, 1, 2, 3) and pt.block_product(1) == 16 and pt.block_product(0) == 16


@pytest.mark.parametrize(
    "tag",
    [
        "",  # empty
        "nchw8c",  # inner block on a dim written lowercase
        "nChw",  # uppercase dim without a block
        "nChw8C",  # block letter uppercase
        "nChw08c",  # leading zero
        "nChw0c",  # zero block
        "nChhw8c",  # a dim twice
        "nChw8x",  # block on a letter that is not a dim of the tag
        "nqhw",  # letters of no oneDNN alphabet
        "bcd",  # abc tags start at a
        "ncdh",  # spatial dims are a suffix of d,h,w
        "nhw",  # activations need n and c
        "8cnChw",  # blocks come last
        "nChw8c8",  # trailing digits
        "nCh8cw",  # outer letter after a block
        "nC_hw8c",  # stray character
        "nChw99999c",  # block beyond the model limit
        "abcdefghijklm",  # 13 dims
        "goihwn",  # mixed alphabets
    ],
)
def test_malformed_tags_are_format_errors(tag):
    with pytest.raises(FormatError) as exc:
        parse_tag(tag)
    assert exc.value.rule == "onednn.tag"
    if tag:
        with pytest.raises(FormatError) as exc:
            models.get_format("onednn." + tag)
        assert exc.value.rule == "onednn.tag"


@settings(max_examples=60, deadline=None)
@given(abc_tags(max_blocks=4))
def test_generic_parser_reads_back_every_abc_tag(tag):
    pt = parse_tag(tag)
    assert pt.abc == tag
    outer = tag[: next((i for i, c in enumerate(tag) if c.isdigit()), len(tag))]
    assert pt.ndims == len(outer)
    assert sorted(pt.letters[d] for d in pt.blocked_dims) == sorted(c.lower() for c in outer if c.isupper())
    assert len(pt.inner_blks) == sum(1 for i, c in enumerate(tag) if c.isalpha() and i and tag[i - 1].isdigit())
