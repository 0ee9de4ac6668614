"""Shared hypothesis strategies and oracles for the oneDNN tests (not a test module)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

ABC = "abcdefghijkl"
DTYPES = ("float32", "float16", "uint16", "int8", "uint8", "int32")


@st.composite
def abc_tags(draw, ndims=None, max_blocks: int = 3, sizes=(2, 3, 4, 8, 16)):
    """A random tag in oneDNN's abc spelling: a permutation of a.., some dims blocked (uppercase),
    1..max_blocks inner blocks on the blocked dims, possibly the same dim twice."""
    nd = draw(st.integers(1, 5)) if ndims is None else ndims
    order = draw(st.permutations(ABC[:nd]))
    nblocks = draw(st.integers(0, max_blocks))
    blocks = [(draw(st.sampled_from(sizes)), draw(st.sampled_from(order))) for _ in range(nblocks)]
    blocked = {c for _, c in blocks}
    outer = "".join(c.upper() if c in blocked else c for c in order)
    return outer + "".join(f"{b}{c}" for b, c in blocks)


def random_tensor(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    """Random bit patterns of ``dtype`` (covers NaN/inf/large values; compare with ``same_bits``)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    return rng.integers(0, 256, size=n, dtype=np.uint8).view(dt).reshape(shape)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def tag_offset_oracle(tag: str, dims, idx) -> int:
    """Independent slow oracle of a oneDNN element offset for a tag in abc spelling.

    Written from the article's blocking description: the padded dims are the dims rounded up to the
    product of their blocks; an element's position is its outer index per dim (in the tag's outer order,
    dense, outermost first) followed by its digit in every inner block (written order); the digits of a
    dim are taken from its index from the LAST block (lowest digits) outwards.
    """
    i = 0
    outer = []
    while i < len(tag) and tag[i].isalpha():
        outer.append(tag[i])
        i += 1
    rest = tag[i:]
    blocks = []
    num = ""
    for ch in rest:
        if ch.isdigit():
            num += ch
        else:
            blocks.append((int(num), ch))
            num = ""
    nd = len(outer)
    prod = {ABC[d]: 1 for d in range(nd)}
    for b, c in blocks:
        prod[c] *= b
    padded = {ABC[d]: -(-dims[d] // prod[ABC[d]]) * prod[ABC[d]] for d in range(nd)}
    # digits of each dim, innermost block first
    rem = {ABC[d]: idx[d] for d in range(nd)}
    digit = [0] * len(blocks)
    for k in range(len(blocks) - 1, -1, -1):
        b, c = blocks[k]
        digit[k] = rem[c] % b
        rem[c] //= b
    # mixed radix number: outer dims (outer order) then inner blocks (written order)
    radices = [padded[c.lower()] // prod[c.lower()] for c in outer] + [b for b, _ in blocks]
    digits = [rem[c.lower()] for c in outer] + digit
    off = 0
    for r, dgt in zip(radices, digits):
        assert 0 <= dgt < r
        off = off * r + dgt
    return off
