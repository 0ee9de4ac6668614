"""Matplotlib renderer of an :class:`~models.draw.mapping.ElementMap` (SVG or PNG, Agg backend).

* :func:`render_memory`: the memory image as a grid of bytes in address order, one row per ``row_bytes``
  (a 32-byte atom by default, NVDLA "atom cube", seed "Feature Data Format"), one block per surface with its
  base address; each element coloured by a logical coordinate and labelled with its logical index; padding,
  alignment tails, value-independent metadata (e.g. sparse-weight masks) hatched grey and labelled.
* :func:`render_logical`: the logical tensor as a table (one axis across, the others down), each element
  coloured and labelled by its address, so the scan order is visible.

Both draw only the address window ``[start, end)``; the caller bounds its size (``MAX_DRAW_BYTES``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # labels stay text in the SVG (searchable, editable)

import matplotlib.pyplot as plt  # noqa: E402  (after matplotlib.use: the backend is chosen before pyplot loads)
import numpy as np  # noqa: E402  (kept with the imports above)
from matplotlib.patches import Patch, Rectangle  # noqa: E402  (after matplotlib.use)

from .mapping import ELEMENT, META, PAD, SHARED, TAIL, ElementMap  # noqa: E402  (after matplotlib.use)

#: The largest address window drawn (bytes) and the largest logical tensor drawn (elements).
MAX_DRAW_BYTES = 4096
MAX_DRAW_ELEMENTS = 4096

_GREY = {PAD: "#d9d9d9", TAIL: "#bdbdbd", META: "#e8e0c8", SHARED: "#f4f4f4"}
_HATCH = {PAD: "///", TAIL: "xx", META: "..", SHARED: "\\\\\\"}
_KIND_LABEL = {PAD: "pad", TAIL: "tail", META: "meta", SHARED: "shared"}
_KIND_LEGEND = {
    PAD: "pad: inside the surface, no element (channel/lane padding, line or surface stride gaps)",
    TAIL: "tail: after the last element of the surface (last atom, size alignment)",
    META: "meta: surface whose bytes do not depend on the values (masks, group sizes)",
    SHARED: "shared: byte holding bits of several elements (bit fields)",
}
_FONT = 6.5
_CHAR_IN = 0.052  # width of one label character at _FONT points, inches (approx.)


def _palette(groups: np.ndarray | list[int]) -> tuple[dict[int, tuple], bool]:
    """Colour per group value: qualitative for up to 20 groups, else a sequential map (``True``)."""
    values = sorted(int(v) for v in np.unique(groups))
    if len(values) <= 10:
        cmap = plt.get_cmap("tab10")
        return {v: cmap(i) for i, v in enumerate(values)}, False
    if len(values) <= 20:
        cmap = plt.get_cmap("tab20")
        return {v: cmap(i) for i, v in enumerate(values)}, False
    cmap = plt.get_cmap("viridis")
    lo, hi = values[0], values[-1]
    return {v: cmap(0.1 + 0.85 * (v - lo) / max(hi - lo, 1)) for v in values}, True


def _label_axes(emap: ElementMap) -> list[int]:
    """Axes shown in labels: every axis longer than 1 (all of them when every axis is 1)."""
    shown = [i for i, d in enumerate(emap.shape) if d > 1]
    return shown or list(range(len(emap.shape)))


def _coord_text(emap: ElementMap, flat: int, shown: list[int]) -> str:
    coord = np.unravel_index(int(flat), emap.shape)
    return ",".join(str(int(coord[i])) for i in shown)


def _shared_text(emap: ElementMap, lo: int, hi: int, shown: list[int]) -> str:
    a, b = np.unravel_index(int(lo), emap.shape), np.unravel_index(int(hi), emap.shape)
    return ",".join(f"{a[i]}" if a[i] == b[i] else f"{a[i]}-{b[i]}" for i in shown)


def _text(ax, x: float, y: float, w_in: float, h_in: float, text: str, color: str = "black") -> None:
    """Write ``text`` centred in a cell ``w_in`` x ``h_in`` inches: across, else upright, else smaller."""
    need = len(text) * _CHAR_IN
    if need <= w_in * 0.92:
        ax.text(x, y, text, ha="center", va="center", fontsize=_FONT, color=color)
    elif need <= h_in * 0.92:
        ax.text(x, y, text, ha="center", va="center", fontsize=_FONT, color=color, rotation=90)
    else:
        size = max(3.0, _FONT * max(w_in, h_in) * 0.9 / need)
        rot = 90 if h_in > w_in else 0
        ax.text(x, y, text, ha="center", va="center", fontsize=size, color=color, rotation=rot)


def _ink(rgba: tuple) -> str:
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def render_memory(
    emap: ElementMap,
    groups: np.ndarray,
    color_title: str,
    out: Path,
    row_bytes: int = 32,
    window: tuple[int, int] | None = None,
    title: str = "",
) -> None:
    """Draw the memory map of ``emap`` into ``out`` (format from its suffix: .svg or .png). ``groups`` are the
    per-element colour groups (tensor-shaped, :func:`~models.draw.mapping.color_key`), ``window`` the address
    range drawn (default: all)."""
    start, end = window or (0, int(emap.byte_address.max()) + 1 if emap.total_bytes else 0)
    sel = (emap.byte_address >= start) & (emap.byte_address < end)
    flat_groups = groups.reshape(-1)
    colors, sequential = _palette(flat_groups[emap.byte_owner[sel & (emap.byte_owner >= 0)]] if sel.any() else [0])
    shown = _label_axes(emap)
    cell_w = min(0.36, 11.5 / row_bytes)
    row_h = 0.5
    left_in, right_in = 0.9, 0.3

    # layout: per surface in the window, a header line then its rows (rows start at the surface base)
    blocks = []
    y = 0.0
    prev_end = None
    for si, s in enumerate(emap.surfaces):
        lo, hi = max(s.base, start), min(s.end, end)
        if lo >= hi:
            continue
        gap: tuple[int, int] | None = (prev_end, s.base) if prev_end is not None and s.base > prev_end else None
        y += 0.9 if gap else 0.0
        first_row = (lo - s.base) // row_bytes
        last_row = (hi - 1 - s.base) // row_bytes
        blocks.append((si, s, lo, hi, first_row, last_row, y, gap))
        y += 0.7 + (last_row - first_row + 1)
        prev_end = s.end
    total_rows = max(y, 1.0)
    n_legend = (3 if sequential else len(colors)) + 4
    legend_rows = 0.35 + 0.2 * ((n_legend + 2) // 3)
    fig_w = left_in + right_in + row_bytes * cell_w
    fig_h = 1.0 + total_rows * row_h + legend_rows
    fig = plt.figure(figsize=(fig_w, fig_h))
    ax = fig.add_axes((left_in / fig_w, legend_rows / fig_h, row_bytes * cell_w / fig_w, total_rows * row_h / fig_h))
    ax.set_xlim(0, row_bytes)
    ax.set_ylim(total_rows, 0)
    ax.axis("off")

    owner, kind, addr = emap.byte_owner, emap.byte_kind, emap.byte_address
    olo, ohi = emap.byte_owner_lo, emap.byte_owner_hi
    for si, s, lo, hi, first_row, last_row, y0, gap in blocks:
        if gap:
            ax.add_patch(
                Rectangle((0, y0 - 0.75), row_bytes, 0.45, facecolor="white", edgecolor="#999999", hatch="---", lw=0.5)
            )
            ax.text(
                row_bytes / 2,
                y0 - 0.52,
                f"gap 0x{gap[0]:x}..0x{gap[1] - 1:x} ({gap[1] - gap[0]} B): next surface aligned to {s.align} B",
                ha="center",
                va="center",
                fontsize=7,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1},
            )
        ax.text(
            0,
            y0 + 0.35,
            f"surface '{s.name}'  base 0x{s.base:x}  {s.nbytes} B  align {s.align}"
            + (f"  (drawn 0x{lo:x}..0x{hi - 1:x})" if (lo, hi) != (s.base, s.end) else ""),
            ha="left",
            va="center",
            fontsize=8.5,
            fontweight="bold",
        )
        ry = y0 + 0.7
        for r in range(first_row, last_row + 1):
            row_addr = s.base + r * row_bytes
            yy = ry + (r - first_row)
            ax.text(-0.3, yy + 0.5, f"0x{row_addr:04x}", ha="right", va="center", fontsize=7, family="monospace")
            ax.add_patch(Rectangle((0, yy), row_bytes, 1, facecolor="none", edgecolor="#666666", lw=0.6))
        idx = np.flatnonzero(sel & (emap.byte_surface == si))
        if idx.size == 0:
            continue
        # runs of bytes with one owner (or one kind of filler) inside one row
        col = (addr[idx] - s.base) % row_bytes
        row = (addr[idx] - s.base) // row_bytes
        key = np.where(owner[idx] >= 0, owner[idx], -10 - kind[idx].astype(np.int64))
        brk = np.ones(idx.size, dtype=bool)
        brk[1:] = (key[1:] != key[:-1]) | (row[1:] != row[:-1]) | (addr[idx][1:] != addr[idx][:-1] + 1)
        brk[1:] |= (kind[idx][1:] == SHARED) & ((olo[idx][1:] != olo[idx][:-1]) | (ohi[idx][1:] != ohi[idx][:-1]))
        starts = np.flatnonzero(brk)
        ends = np.append(starts[1:], idx.size)
        for a, b in zip(starts, ends):
            i = idx[a]
            x, w = float(col[a]), float(b - a)
            yy = ry + float(row[a] - first_row)
            k = int(kind[i])
            if k == ELEMENT:
                face = colors.get(int(flat_groups[owner[i]]), (0.8, 0.8, 0.8, 1))
                ax.add_patch(Rectangle((x, yy), w, 1, facecolor=face, edgecolor="white", lw=0.8))
                _text(ax, x + w / 2, yy + 0.5, w * cell_w, row_h, _coord_text(emap, owner[i], shown), _ink(face))
            else:
                ax.add_patch(Rectangle((x, yy), w, 1, facecolor=_GREY[k], edgecolor="#888888", hatch=_HATCH[k], lw=0.5))
                text = _shared_text(emap, olo[i], ohi[i], shown) if k == SHARED else f"{_KIND_LABEL[k]} {b - a}B"
                if len(text) * _CHAR_IN <= w * cell_w * 0.92 or k == SHARED:
                    _text(ax, x + w / 2, yy + 0.5, w * cell_w, row_h, text, "#333333")
    # byte offsets across the top
    step = 1 if row_bytes <= 32 else (4 if row_bytes <= 128 else 16)
    for c in range(0, row_bytes, step):
        ax.text(c + 0.5, -0.15, str(c), ha="center", va="bottom", fontsize=6, color="#555555")

    axes_txt = ",".join(emap.axes[i] for i in shown)
    head = title or (
        f"{emap.format}  shape {'x'.join(map(str, emap.shape))} ({','.join(emap.axes)})  "
        f"{emap.dtype.name}" + "".join(f"  {k}={v}" for k, v in emap.opts.items())
    )
    fig.text(0.5, 1 - 0.25 / fig_h, head, ha="center", va="top", fontsize=10, fontweight="bold")
    fig.text(
        0.5,
        1 - 0.55 / fig_h,
        f"memory map, {row_bytes} bytes per row, addresses 0x{start:x}..0x{end - 1:x};"
        f" cells labelled {axes_txt}, coloured by {color_title}",
        ha="center",
        va="top",
        fontsize=8,
    )
    handles = [Patch(facecolor=c, edgecolor="white", label=f"{color_title}={v}") for v, c in colors.items()]
    if sequential:
        vals = list(colors)
        handles = [
            Patch(facecolor=colors[v], label=f"{color_title}={v}") for v in (vals[0], vals[len(vals) // 2], vals[-1])
        ]
    kinds_present = [k for k in (PAD, TAIL, META, SHARED) if np.any(kind[sel] == k)]
    handles += [
        Patch(facecolor=_GREY[k], edgecolor="#888888", hatch=_HATCH[k], label=_KIND_LEGEND[k]) for k in kinds_present
    ]
    if handles:
        fig.legend(
            handles=handles, loc="lower center", ncol=3, fontsize=7, frameon=False, bbox_to_anchor=(0.5, 0.02 / fig_h)
        )
    fig.savefig(out, format=Path(out).suffix.lstrip(".").lower() or "svg", dpi=110)
    plt.close(fig)


def render_logical(
    emap: ElementMap,
    out: Path,
    window: tuple[int, int] | None = None,
    column_axis: int | None = None,
    title: str = "",
) -> None:
    """Draw the logical tensor of ``emap`` into ``out``: one axis across (``column_axis``, default the longest,
    the innermost on ties), the other axes down, each element coloured by its address (a sequential map: the
    scan order reads as a gradient) and labelled with it; elements outside ``window`` or never stored grey."""
    shape = emap.shape
    ax_c = column_axis if column_axis is not None else max(range(len(shape)), key=lambda i: (shape[i], i))
    others = [i for i in range(len(shape)) if i != ax_c]
    perm = others + [ax_c]
    addr = np.transpose(emap.address, perm).reshape(-1, shape[ax_c])
    start, end = window or (0, int(emap.byte_address.max()) + 1 if emap.total_bytes else 1)
    inside = (addr >= start) & (addr < end)
    ncols = min(shape[ax_c], 32)
    chunks = (shape[ax_c] + ncols - 1) // ncols
    nrows = addr.shape[0]
    cell_w, row_h = 0.46, 0.3
    label_in = 0.25 + 0.07 * max(len(",".join("0" * len(str(shape[i])) for i in others)), 4) + 0.3
    total = chunks * (nrows + 1.4)
    fig_w = label_in + ncols * cell_w + 0.4
    fig_h = 1.2 + total * row_h + 0.9
    fig = plt.figure(figsize=(fig_w, fig_h))
    ax = fig.add_axes((label_in / fig_w, 0.9 / fig_h, ncols * cell_w / fig_w, total * row_h / fig_h))
    ax.set_xlim(0, ncols)
    ax.set_ylim(total, 0)
    ax.axis("off")
    cmap = plt.get_cmap("viridis")
    valid = addr[inside]
    lo, hi = (int(valid.min()), int(valid.max())) if valid.size else (0, 1)
    row_coords = np.array(np.unravel_index(np.arange(nrows), [shape[i] for i in others] or [1])).T
    names = ",".join(emap.axes[i] for i in others)
    for ch in range(chunks):
        y0 = ch * (nrows + 1.4) + 1.2
        c0 = ch * ncols
        width = min(ncols, shape[ax_c] - c0)
        for c in range(width):
            ax.text(c + 0.5, y0 - 0.2, f"{emap.axes[ax_c]}={c0 + c}", ha="center", va="bottom", fontsize=6)
        ax.text(-0.2, y0 - 0.2, names, ha="right", va="bottom", fontsize=6.5, fontweight="bold")
        for r in range(nrows):
            ax.text(
                -0.2,
                y0 + r + 0.5,
                ",".join(str(int(v)) for v in row_coords[r]) if others else "",
                ha="right",
                va="center",
                fontsize=6.5,
                family="monospace",
            )
            for c in range(width):
                a = int(addr[r, c0 + c])
                if inside[r, c0 + c]:
                    face = cmap(0.05 + 0.9 * (a - lo) / max(hi - lo, 1))
                    ax.add_patch(Rectangle((c, y0 + r), 1, 1, facecolor=face, edgecolor="white", lw=0.6))
                    ax.text(c + 0.5, y0 + r + 0.5, f"{a:x}", ha="center", va="center", fontsize=6, color=_ink(face))
                else:
                    ax.add_patch(
                        Rectangle(
                            (c, y0 + r),
                            1,
                            1,
                            facecolor="#eeeeee",
                            edgecolor="#bbbbbb",
                            hatch="///" if a < 0 else None,
                            lw=0.5,
                        )
                    )
    head = title or (
        f"{emap.format}  shape {'x'.join(map(str, shape))} ({','.join(emap.axes)})  {emap.dtype.name}"
        + "".join(f"  {k}={v}" for k, v in emap.opts.items())
    )
    fig.text(0.5, 1 - 0.2 / fig_h, head, ha="center", va="top", fontsize=10, fontweight="bold")
    fig.text(
        0.5,
        1 - 0.5 / fig_h,
        f"logical view: each element shows its byte address (hex) in the memory image,"
        f" dark = low, light = high; grey: outside 0x{start:x}..0x{end - 1:x}",
        ha="center",
        va="top",
        fontsize=8,
    )
    fig.savefig(out, format=Path(out).suffix.lstrip(".").lower() or "svg", dpi=110)
    plt.close(fig)


#: Colours of :func:`render_byte_diff`: expected / actual byte of a difference, and a row that differs.
_DIFF_WANT, _DIFF_GOT, _DIFF_ROW = "#a1d99b", "#fb6a4a", "#b2182b"
_MONO = "DejaVu Sans Mono"
_MONO_ADVANCE = 0.602  # advance of one DejaVu Sans Mono character, em (0.6 in most monospace fonts)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of every run of True in a 1-D bool array."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist()))


def render_byte_diff(
    expected: np.ndarray,
    actual: np.ndarray,
    row_labels: list[str],
    out: Path,
    title: str = "",
    subtitle: str = "",
    notes: list[str] | None = None,
    first: tuple[int, int] | None = None,
) -> None:
    """Draw expected and actual bytes into ``out`` (.svg or .png): per row of ``expected`` (a (rows, width) int
    array of byte values, -1 = no byte there) a line of expected bytes in hex and under it the actual bytes;
    differing bytes filled (expected green, actual red), the row's label (its logical coordinate) on the left,
    red for a row that differs; ``first`` (row, column) outlined; ``notes`` printed under the grid. Each line is
    one monospace string over its cells (3 characters a byte), so the SVG stays small. The caller bounds the rows
    (a window) and writes the labels."""
    rows, width = expected.shape
    diff = (expected != actual) & ((expected >= 0) | (actual >= 0))
    font = 6.5
    char_in = _MONO_ADVANCE * font / 72
    cell_w = 3 * char_in
    line_h, gap = 0.13, 0.06
    label_in = 0.3 + char_in * max((len(s) for s in row_labels), default=4)
    notes = notes or []
    fig_w = max(label_in + width * cell_w + 0.4, 0.065 * max((len(n) for n in notes), default=0))
    heading = textwrap.wrap(title, max(40, int(fig_w / 0.085))) or [""]  # bold 8.5 pt: ~0.08 in a character
    head_in = 0.45 + 0.16 * len(heading)
    foot_in = 0.15 + 0.15 * len(notes)
    grid_h = rows * (2 * line_h + gap)
    fig_h = head_in + grid_h + foot_in
    fig = plt.figure(figsize=(fig_w, fig_h))
    ax = fig.add_axes((label_in / fig_w, foot_in / fig_h, width * cell_w / fig_w, grid_h / fig_h))
    ax.set_xlim(0, width)
    ax.set_ylim(grid_h, 0)
    ax.axis("off")
    for r in range(rows):
        y0 = r * (2 * line_h + gap)
        bad = bool(diff[r].any())
        ax.text(
            -0.4,
            y0 + line_h,
            row_labels[r],
            ha="right",
            va="center",
            fontsize=font,
            family=_MONO,
            color=_DIFF_ROW if bad else "black",
        )
        for line, (vals, face) in enumerate(((expected[r], _DIFF_WANT), (actual[r], _DIFF_GOT))):
            y = y0 + line * line_h
            present = vals >= 0
            for a, b in _runs(present):
                ax.add_patch(Rectangle((a, y), b - a, line_h, facecolor="white", edgecolor="#aaaaaa", lw=0.4))
            for a, b in _runs(diff[r]):
                ax.add_patch(Rectangle((a, y), b - a, line_h, facecolor=face, edgecolor="none"))
            text = " ".join(f"{int(v):02x}" if v >= 0 else "  " for v in vals).rstrip()
            ax.text(1 / 6, y + line_h / 2, text, ha="left", va="center", fontsize=font, family=_MONO)
            ax.text(
                width + 0.3, y + line_h / 2, "exp" if line == 0 else "act", fontsize=5, va="center", color="#555555"
            )
    if first is not None:
        r, c = first
        y0 = r * (2 * line_h + gap)
        ax.add_patch(Rectangle((c, y0), 1, 2 * line_h, facecolor="none", edgecolor="black", lw=1.2))
    for c in range(0, width, 4):
        ax.text(c + 0.5, -0.02, str(c), ha="center", va="bottom", fontsize=5, color="#555555")
    fig.text(0.5, 1 - 0.1 / fig_h, "\n".join(heading), ha="center", va="top", fontsize=8.5, fontweight="bold")
    if subtitle:
        fig.text(0.5, 1 - (0.14 + 0.16 * len(heading)) / fig_h, subtitle, ha="center", va="top", fontsize=6.5)
    for i, note in enumerate(notes):
        fig.text(0.1 / fig_w, (foot_in - 0.12 - 0.15 * i) / fig_h, note, ha="left", va="center", fontsize=6.5)
    fig.savefig(out, format=Path(out).suffix.lstrip(".").lower() or "svg", dpi=130)
    plt.close(fig)
