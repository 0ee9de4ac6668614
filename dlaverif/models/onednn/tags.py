"""Generic parser of oneDNN (MKL-DNN) format tags: ``nchw``, ``nChw8c``, ``OIhw4i16o4i``, ``aBcd8b`` ...

Spec: MKL-DNN 1.0 "Understanding Memory Formats" (seed 002), sections "Plain data formats" and
"Blocked layout" (note: "lower- and uppercase letters ... distinguish between the blocks (e.g. 8c)
and the remaining co-dimension"). There is **no table of tags** here: every tag is parsed from its
letters by one grammar.

Grammar (as oneDNN writes its tags)::

    tag   := outer blocks
    outer := one letter per logical dimension, outermost first; an UPPERCASE letter is the
             outer (blocked) part of a dimension that has inner blocks, lowercase a plain one
    blocks:= ( size letter )*   size = decimal without leading zero, letter lowercase;
             the blocks nest in the order written: the LAST one written is the innermost

Logical dimension order. A tag's letters name logical dimensions; the logical order (the order
of ``dims`` in a memory descriptor, and of the numpy tensor's axes) is not the order written
but the one oneDNN defines for the letters' *alphabet*. The alphabets and their admissible letter
sets follow the aliases of ``dnnl_types.h`` (facts, e.g. ``nhwc = acdb``, ``chwn = bcda``,
``hwio = cdba``, ``goihw = abcde``, ``hwigo = decab``, ``ntc = bac``, ``ldgoi = abdec``,
``nChw8c = aBcd8b``, ``OIhw4i16o4i = ABcd4b16a4b``, ``gOIhw16i16o = aBCde16c16b``):

=============  ==================  ===================================================
alphabet       logical order       admissible letter sets
=============  ==================  ===================================================
``abc``        a b c ... l         the first k letters a.. (k = 1..12)
``x``          x                   {x} (1-D, alias of ``a``)
activations    n c d h w           {n, c} + spatial suffix: {}, {w}, {h, w}, {d, h, w}
weights        g o i d h w         {o, i} (+ g) + spatial suffix as above
rnn data       t n c               {t, n} (+ c)       (``tnc = abc``, ``ntc = bac``, ``nt = ba``)
rnn states     l d n c             {l, d, n, c}       (``ldnc = abcd``)
rnn weights    l d i g o           {l, d, o} + {i} and/or {g} (``ldigo``, ``ldgoi = abdec``, ``ldgo``, ``ldio``)
=============  ==================  ===================================================

A tag whose letter set fits none of them is malformed (``FormatError`` rule ``onednn.tag``).

Inner blocks follow oneDNN's ``blocking_desc_t``: ``inner_blks`` / ``inner_idxs`` in the order
written (index 0 = outermost block). A dimension blocked by ``b1 .. bk`` (written in that order)
splits its padded index as ``i = ((outer*b1 + j1)*b2 + j2) ... *bk + jk``; the last block takes the
lowest digits (this is how oneDNN's ``memory_desc_wrapper::off_v`` peels blocks from the innermost
one outwards). Model limits (chosen, not oneDNN's): at most 12 logical dims and 12 inner blocks
(``DNNL_MAX_NDIMS``), and the product of all inner blocks at most 65536 elements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import FormatError

MAX_NDIMS = 12
MAX_INNER_NBLKS = 12
MAX_BLOCK_ELEMS = 1 << 16

_ABC = "abcdefghijkl"
_SPATIAL = ("", "w", "hw", "dhw")


def _alphabet_of(letters: frozenset[str]) -> tuple[str, str] | None:
    """(alphabet name, logical order) of a letter set, or ``None`` when no alphabet admits it."""
    k = len(letters)
    if 1 <= k <= len(_ABC) and letters == frozenset(_ABC[:k]):
        return "abc", _ABC[:k]
    if letters == {"x"}:
        return "x", "x"
    for sp in _SPATIAL:
        if letters == frozenset("nc" + sp):
            return "activations", "nc" + sp
        if letters == frozenset("oi" + sp):
            return "weights", "oi" + sp
        if letters == frozenset("goi" + sp):
            return "weights", "goi" + sp
    if letters in (frozenset("tn"), frozenset("tnc")):
        return "rnn_data", "".join(c for c in "tnc" if c in letters)
    if letters == frozenset("ldnc"):
        return "rnn_states", "ldnc"
    if letters in (frozenset("ldigo"), frozenset("ldgo"), frozenset("ldio")):
        return "rnn_weights", "".join(c for c in "ldigo" if c in letters)
    return None


_TAG_RE = re.compile(r"^([A-Za-z]+)((?:[1-9][0-9]*[a-z])*)$")
_BLOCK_RE = re.compile(r"([1-9][0-9]*)([a-z])")


@dataclass(frozen=True)
class ParsedTag:
    """A parsed format tag.

    ``letters``: logical dims in logical order (lowercase). ``outer``: logical dim indices of the
    outer part, outermost first. ``inner_blks`` / ``inner_idxs``: inner blocks, outermost first
    (oneDNN ``blocking_desc_t`` order).
    """

    tag: str
    alphabet: str
    letters: str
    outer: tuple[int, ...]
    inner_blks: tuple[int, ...]
    inner_idxs: tuple[int, ...]

    @property
    def ndims(self) -> int:
        return len(self.letters)

    @property
    def inner_nblks(self) -> int:
        return len(self.inner_blks)

    @property
    def axes(self) -> tuple[str, ...]:
        """Logical axis names for the registry: the letters in logical order, uppercase."""
        return tuple(c.upper() for c in self.letters)

    @property
    def blocked_dims(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.inner_idxs)))

    def block_product(self, dim: int) -> int:
        """Product of the inner blocks of logical dim ``dim`` (1 when it is not blocked)."""
        p = 1
        for b, d in zip(self.inner_blks, self.inner_idxs):
            if d == dim:
                p *= b
        return p

    @property
    def abc(self) -> str:
        """The same tag in oneDNN's domain-agnostic spelling (``nChw8c`` -> ``aBcd8b``)."""
        out = "".join(_ABC[d].upper() if d in self.inner_idxs else _ABC[d] for d in self.outer)
        return out + "".join(f"{b}{_ABC[d]}" for b, d in zip(self.inner_blks, self.inner_idxs))


@lru_cache(maxsize=512)
def parse_tag(tag: str) -> ParsedTag:
    """Parse a oneDNN format tag (see the module docstring); malformed tags raise ``onednn.tag``."""
    if not isinstance(tag, str):
        raise FormatError("onednn.tag", f"format tag must be a string, got {type(tag).__name__}")
    m = _TAG_RE.match(tag)
    if not m:
        raise FormatError(
            "onednn.tag",
            f"malformed format tag {tag!r}: want dimension letters followed by inner "
            "blocks <size><lowercase letter> (e.g. nChw8c, OIhw4i16o4i)",
        )
    outer_txt, blocks_txt = m.group(1), m.group(2)
    lowered = outer_txt.lower()
    if len(set(lowered)) != len(lowered):
        raise FormatError("onednn.tag", f"format tag {tag!r} names a dimension twice in {outer_txt!r}")
    if len(lowered) > MAX_NDIMS:
        raise FormatError("onednn.tag", f"format tag {tag!r} has {len(lowered)} dims, at most {MAX_NDIMS}")
    found = _alphabet_of(frozenset(lowered))
    if found is None:
        raise FormatError(
            "onednn.tag",
            f"format tag {tag!r}: letters {sorted(lowered)} are no oneDNN set of logical "
            "dims (a.., x, n c [d] [h] w, [g] o i [d] [h] w, t n [c], l d n c, "
            "l d [i] [g] o)",
        )
    alphabet, order = found
    pos = {c: i for i, c in enumerate(order)}
    blocks = [(int(s), c) for s, c in _BLOCK_RE.findall(blocks_txt)]
    if len(blocks) > MAX_INNER_NBLKS:
        raise FormatError("onednn.tag", f"format tag {tag!r} has {len(blocks)} inner blocks, at most {MAX_INNER_NBLKS}")
    upper = {c.lower() for c in outer_txt if c.isupper()}
    blocked = {c for _, c in blocks}
    for c in sorted(blocked - upper):
        what = "is not a dimension of the tag" if c not in pos else "is written lowercase in the outer part"
        raise FormatError(
            "onednn.tag",
            f"format tag {tag!r}: inner block on {c!r}, which {what} "
            f"(a blocked dim is written uppercase: {c.upper()!r})",
        )
    for c in sorted(upper - blocked):
        raise FormatError(
            "onednn.tag", f"format tag {tag!r}: {c.upper()!r} is uppercase (blocked) but has no inner block"
        )
    total = 1
    for s, _ in blocks:
        total *= s
    if total > MAX_BLOCK_ELEMS:
        raise FormatError(
            "onednn.tag", f"format tag {tag!r}: inner blocks hold {total} elements, model limit {MAX_BLOCK_ELEMS}"
        )
    return ParsedTag(
        tag=tag,
        alphabet=alphabet,
        letters=order,
        outer=tuple(pos[c] for c in lowered),
        inner_blks=tuple(s for s, _ in blocks),
        inner_idxs=tuple(pos[c] for _, c in blocks),
    )
