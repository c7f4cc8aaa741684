"""Where everything goes, as pure geometry from the window size (no drawing here).

Landscape: an info bar on top, the buttons in a panel on the right, then a top row of slots
(free cells on the left, the four foundations S H D C on the right) over the columns.
Portrait: the info bar on top, the buttons in a row at the bottom, the same table between.
Long columns squeeze their fan (:func:`fan_offsets`) so that no card ever leaves the screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pygame import Rect

BUTTONS: tuple[str, ...] = ("new", "undo", "redo", "hint", "settings")
CARD_RATIO = 1.4  # height / width
FINGER_MM = 9.0  # a comfortable touch target
DEFAULT_PX_PER_MM = 4.0  # a desktop monitor, when the config does not say


def estimate_px_per_mm(width: int, height: int) -> float:
    """Pixels per millimetre when the config does not say: screens up to 1280x800 (either way
    round) are taken as 7" panels (800x480 gives 5.2, 720x1280 gives 8.3), larger ones as
    desktop monitors at 96 dpi. The same guess as the kiosk config's."""
    long_side, short_side = max(width, height), min(width, height)
    if 0 < long_side <= 1280 and 0 < short_side <= 800:
        return math.hypot(width, height) / (7 * 25.4)
    return 96 / 25.4


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    portrait: bool
    card_w: int
    card_h: int
    gap: int
    margin: int
    columns: tuple[Rect, ...]  # where each column's first card lies
    column_bottom: int  # no column card goes below this y
    foundations: tuple[Rect, ...]  # spades, hearts, diamonds, clubs
    cells: tuple[Rect, ...]
    info_bar: Rect
    buttons: dict[str, Rect]
    title: Rect  # free room in the top row for the game's name (may be empty)
    px_per_mm: float

    # ----------------------------------------------------------------- fans
    @property
    def fan_down(self) -> float:
        return self.card_h * 0.11

    @property
    def fan_up(self) -> float:
        return self.card_h * (0.295 if self.portrait else 0.27)

    @property
    def fan_down_min(self) -> float:
        """Hidden cards squeeze further than face-up ones: only their count matters."""
        return max(2.0, self.card_h * 0.025)

    @property
    def fan_up_readable(self) -> float:
        """Enough to read the corner index of a covered card."""
        return self.card_h * 0.2

    def column_zone(self, index: int) -> Rect:
        """The area that takes a drop on column ``index``: its width plus half the gaps, from
        the top row down to the bottom of the table."""
        col = self.columns[index]
        top = col.top - self.gap
        return Rect(col.left - self.gap // 2, top, col.width + self.gap, self.column_bottom - top)

    def foundation_zone(self) -> Rect:
        zone = self.foundations[0].unionall(self.foundations[1:])
        return zone.inflate(self.gap, self.gap)

    def fan_offsets(self, down: int, total: int) -> list[int]:
        """The y of each card of a column with ``down`` hidden cards of ``total``."""
        return fan_offsets(self, down, total)

    def slots(self) -> list[Rect]:
        """Every fixed rectangle (for overlap checks)."""
        return [
            *self.foundations,
            *self.cells,
            *self.columns,
            self.info_bar,
            *self.buttons.values(),
        ]


def fan_offsets(layout: Layout, down: int, total: int) -> list[int]:
    """Card tops for a column: hidden cards close together, face-up cards wider apart; when the
    column would pass ``column_bottom`` the hidden gaps shrink first (only as far as needed,
    down to a sliver), then the face-up gaps, until everything fits. The top card always ends
    on screen."""
    if total <= 0:
        return []
    top = layout.columns[0].top
    room = max(0.0, layout.column_bottom - layout.card_h - top)
    up_gaps = max(0, total - down - 1)
    fd, fu = layout.fan_down, layout.fan_up
    need = fd * down + fu * up_gaps
    if need > room:
        # Hidden gaps give way first, but only as far as needed.
        if down:
            fd = max(layout.fan_down_min, min(fd, (room - fu * up_gaps) / down))
        if up_gaps:
            fu = min(fu, (room - fd * down) / up_gaps)
        if fu < layout.fan_down_min or fd * down + fu * up_gaps > room:
            # Even squeezed it does not fit: shrink every gap in proportion.
            base = layout.fan_down_min * down + max(fu, layout.fan_down_min) * up_gaps
            scale = room / base if base else 1.0
            fd = layout.fan_down_min * scale
            fu = max(fu, layout.fan_down_min) * scale
    ys: list[int] = []
    y = float(top)
    for k in range(total):
        ys.append(int(y))
        y += fd if k < down else fu
    return ys


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def compute_layout(
    width: int,
    height: int,
    *,
    columns: int,
    cells: int,
    px_per_mm: float | None = None,
) -> Layout:
    """The layout for a ``width`` x ``height`` window and a game with ``columns`` columns and
    ``cells`` free cells."""
    width, height = max(width, 240), max(height, 240)
    ppm = px_per_mm or DEFAULT_PX_PER_MM
    finger = FINGER_MM * ppm
    portrait = height > width
    short = min(width, height)
    margin = max(4, round(short * 0.014))
    n = columns
    buttons: dict[str, Rect] = {}
    if portrait:
        bar_h = round(_clamp(height * 0.034, 26, 56))
        button_h = round(_clamp(height * 0.06, min(finger, height * 0.1), height * 0.09))
        info_bar = Rect(0, 0, width, bar_h)
        bw = (width - margin * (len(BUTTONS) + 1)) / len(BUTTONS)
        by = height - margin - button_h
        for i, name in enumerate(BUTTONS):
            buttons[name] = Rect(round(margin + i * (bw + margin)), by, round(bw), button_h)
        area = Rect(margin, bar_h + margin, width - 2 * margin, by - margin - bar_h - margin)
        height_limit = area.height / 4.2
    else:
        bar_h = round(_clamp(height * 0.055, 24, 44))
        info_bar = Rect(0, 0, width, bar_h)
        panel_w = round(_clamp(width * 0.115, max(finger, 84), 210))
        panel = Rect(width - panel_w - margin, bar_h + margin, panel_w, height - bar_h - 2 * margin)
        bh = min((panel.height - margin * (len(BUTTONS) - 1)) / len(BUTTONS), panel_w * 1.0)
        total_h = bh * len(BUTTONS) + margin * (len(BUTTONS) - 1)
        y0 = panel.top + (panel.height - total_h) / 2
        for i, name in enumerate(BUTTONS):
            buttons[name] = Rect(panel.left, round(y0 + i * (bh + margin)), panel_w, round(bh))
        area = Rect(margin, bar_h + margin, panel.left - 2 * margin, height - bar_h - 2 * margin)
        height_limit = area.height / 3.9
    gap_ratio = 0.1
    card_w = area.width / (n + (n - 1) * gap_ratio)
    card_w = min(card_w, height_limit / CARD_RATIO)
    card_w = int(card_w)
    card_h = int(card_w * CARD_RATIO)
    gap = max(3, int(card_w * gap_ratio))
    row_w = n * card_w + (n - 1) * gap
    x0 = area.left + (area.width - row_w) // 2
    xs = [x0 + i * (card_w + gap) for i in range(n)]
    row_y = area.top
    found_cols = list(range(n - 4, n))
    foundations = tuple(Rect(xs[c], row_y, card_w, card_h) for c in found_cols)
    cell_rects = tuple(Rect(xs[c], row_y, card_w, card_h) for c in range(cells))
    first_free = cells
    last_free = n - 5
    if last_free >= first_free:
        left = xs[first_free]
        title = Rect(left, row_y, xs[last_free] + card_w - left, card_h)
    else:
        title = Rect(xs[0], row_y, 0, 0)
    col_y = row_y + card_h + max(gap, int(card_h * 0.12))
    column_rects = tuple(Rect(x, col_y, card_w, card_h) for x in xs)
    return Layout(
        width=width,
        height=height,
        portrait=portrait,
        card_w=card_w,
        card_h=card_h,
        gap=gap,
        margin=margin,
        columns=column_rects,
        column_bottom=area.bottom,
        foundations=foundations,
        cells=cell_rects,
        info_bar=info_bar,
        buttons=buttons,
        title=title,
        px_per_mm=ppm,
    )
