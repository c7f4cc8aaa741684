"""A dialog's layout said as tracks instead of sums: a box cut into rows (or columns), each a
fixed number of pixels or a share of what the fixed ones leave (``Fill``), with gaps between
them. Pure arithmetic on ``pygame.Rect``: no display, no fonts.

    title, body, buttons = rows(inner, [40, Fill(), 48], gap=8)
    label, field = columns(body, [120, Fill()], gap=6)

Tracks are laid out in floats and each is snapped to the pixel at the end: its start floored
(the pixel it starts in, as the dialogs' rows always were), its size rounded; so a row of five
equal steps is as even as pixels allow and the error never builds up along a line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pygame import Rect


@dataclass(frozen=True)
class Fill:
    """A track that takes a share of the room the fixed tracks and the gaps leave: ``weight``
    shares of it, out of the weights of every ``Fill`` in the line."""

    weight: float = 1.0


Track = float | Fill


def sizes(length: float, tracks: Sequence[Track], gap: float | Sequence[float] = 0) -> list[float]:
    """Each track's size along a line ``length`` long: the fixed ones as given, the ``Fill``
    ones sharing what is left (none below zero: where the fixed tracks take it all, a fill gets
    nothing)."""
    weights = sum(t.weight for t in tracks if isinstance(t, Fill))
    rest = free(length, tracks, gap)
    return [rest * t.weight / weights if isinstance(t, Fill) else float(t) for t in tracks]


def free(length: float, tracks: Sequence[Track], gap: float | Sequence[float] = 0) -> float:
    """The room the ``Fill`` tracks share along a line ``length`` long: what the fixed tracks
    and the gaps leave (never below zero). A dialog asks it to size what goes in its rows."""
    fixed = sum(t for t in tracks if not isinstance(t, Fill))
    return max(0.0, length - fixed - sum(gaps(gap, len(tracks))))


def share(length: float, tracks: Sequence[Track], gap: float | Sequence[float] = 0) -> float:
    """How long a ``Fill()`` (weight 1) of ``tracks`` is along a line ``length`` long: a row's
    height where the rows share the room evenly."""
    weights = sum(t.weight for t in tracks if isinstance(t, Fill))
    return free(length, tracks, gap) * 1.0 / weights


def gaps(gap: float | Sequence[float], count: int) -> list[float]:
    """The gaps between ``count`` tracks: one size for each, or one given for each."""
    if isinstance(gap, int | float):
        return [float(gap)] * max(0, count - 1)
    if len(gap) != max(0, count - 1):
        raise ValueError(f"{count} tracks need {max(0, count - 1)} gaps, not {len(gap)}")
    return [float(g) for g in gap]


def spans(
    start: float, length: float, tracks: Sequence[Track], gap: float | Sequence[float] = 0
) -> list[tuple[int, int]]:
    """Where each track starts and how long it is, in whole pixels, from ``start`` on."""
    out = []
    at = float(start)
    for size, after in zip(sizes(length, tracks, gap), [*gaps(gap, len(tracks)), 0.0], strict=True):
        out.append((math.floor(at), round(size)))
        at += size + after
    return out


def rows(area: Rect, tracks: Sequence[Track], gap: float | Sequence[float] = 0) -> list[Rect]:
    """``area`` cut into rows from its top down, each as wide as ``area``."""
    return [
        Rect(area.left, top, area.width, height)
        for top, height in spans(area.top, area.height, tracks, gap)
    ]


def columns(area: Rect, tracks: Sequence[Track], gap: float | Sequence[float] = 0) -> list[Rect]:
    """``area`` cut into columns from its left, each as tall as ``area``."""
    return [
        Rect(left, area.top, width, area.height)
        for left, width in spans(area.left, area.width, tracks, gap)
    ]


def extent(tracks: Sequence[float], gap: float | Sequence[float] = 0) -> float:
    """How long fixed ``tracks`` and the gaps between them are together (a panel's height)."""
    return sum(tracks) + sum(gaps(gap, len(tracks)))
