"""Where everything goes, as pure geometry from the window size (no drawing here).

Landscape (short screens: the whole height goes to the columns): an info bar on top, the buttons
in a slim strip on the right, the columns from just under the bar to the bottom, and beside
them a block two cards wide: the four foundations (S H / D C) and under them the table's title
(the game's name, its rules and its kind of deal). A game with free cells (Seahaven: ten
columns) instead puts a top row over the columns, as wide as they are: free cells left,
foundations right, the title between them; its cards are as large as the width and its longest
possible column allow (where that leaves the title too narrow, the block beside them stays).
Portrait (height to spare): the info bar on top, the buttons in two rows at the bottom, the title
in a strip of two lines under the bar, a top row of slots (free cells left, foundations right)
over the columns, whose fan opens up to use the height (:attr:`Layout.fan_open`).
The title's room is planned for the info bar's text size (:func:`text_size`), never on cards,
slots or buttons.
Long columns squeeze their fan (:func:`fan_offsets`), hidden cards first, so that no card ever
leaves the screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

from pygame import Rect

Button = Literal["new", "undo", "redo", "hint", "settings"]  # the table's buttons, in their order
Command = Literal[Button, "finish"]  # what a button or a key asks of the table (Finish: in
# Hint's place while the rest of the game is certain, game.table.finish)
BUTTONS: tuple[Button, ...] = get_args(Button)
CARD_RATIO = 1.4  # height / width
FINGER_MM = 9.0  # a comfortable touch target
BUTTON_LABEL = 0.34  # a label beside a button's icon, of the button's height
DEFAULT_PX_PER_MM = 4.0  # a desktop monitor, when the config does not say
PLANNED_COLUMN = 20  # the fan is planned so a column this long keeps its open gaps
OPEN_FAN_MAX = 0.45  # the widest open fan, of a card's height
BACK_BORDER = 14  # a card back's white border is 1/14 of its width (at least 3 px), its
# dark outline 1/40
LINE_HEIGHT = 1.25  # a line of text, of its font size (DejaVu Sans Bold: 1.17 to 1.23)
GAP_RATIO = 0.1  # the gap between columns, of a card's width
STRIP_MM = 3.0  # the least strip of a covered card in a column a game can really deal out
TITLE_SIDE_LINES = 5  # the least room under the landscape block, in lines of the title
TITLE_ROW_LINES = 4  # the least height of the title in the landscape top row, in lines
TITLE_ROW_EMS = 10  # the least width of the title in the landscape top row, in text sizes (and
# at least TITLE_ROW_LINES lines, and room for 50 such sizes in all: ten in each of five lines)


def text_size(bar_height: int) -> int:
    """The info bar's text size (before a crowded bar shrinks it), and the least size the
    table's title is planned for."""
    return max(10, int(bar_height * 0.55))


def line_height(size: int) -> int:
    return math.ceil(size * LINE_HEIGHT)


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
    buttons: dict[Button, Rect]
    title: Rect  # the box of the title's text: free felt, clear of cards, slots and buttons
    px_per_mm: float
    fan_open: float = 0.0  # the face-up gap where the screen has room for it (0: fan_up)
    rise: tuple[int, ...] = ()  # how far each column may start higher when it grows too long

    @property
    def text_size(self) -> int:
        """The info bar's text size, the least the title is drawn at where it fits."""
        return text_size(self.info_bar.height)

    # ----------------------------------------------------------------- fans
    @property
    def fan_down(self) -> float:
        return self.card_h * 0.11

    @property
    def fan_up(self) -> float:
        return self.card_h * (0.295 if self.portrait else 0.27)

    @property
    def fan_down_min(self) -> float:
        """Hidden cards squeeze further than face-up ones (only their count matters), but each
        still shows a line of its blue back below the white border."""
        w = self.card_w
        return float(max(3, w // BACK_BORDER) + max(1, w // 40) + max(3, w // 30))

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

    def fan_offsets(self, down: int, total: int, column: int = 0) -> list[int]:
        """The y of each card of column ``column`` with ``down`` hidden cards of ``total``."""
        return fan_offsets(self, down, total, column)

    def slots(self) -> list[Rect]:
        """Every fixed rectangle (for overlap checks)."""
        return [
            *self.foundations,
            *self.cells,
            *self.columns,
            self.info_bar,
            *self.buttons.values(),
        ]


def fan_offsets(layout: Layout, down: int, total: int, column: int = 0) -> list[int]:
    """Card tops for a column: hidden cards close together, face-up cards wider apart. A column
    spreads to fill the height it has now: every gap opens in proportion, up to a face-up gap
    of OPEN_FAN_MAX of a card, and closes again only as the column grows (the way the peers'
    tables breathe). Past the usual gaps, when the column would pass ``column_bottom``, the
    hidden gaps shrink first (only as far as needed, down to a sliver), then the face-up gaps,
    until everything fits; a column that may rise (:attr:`Layout.rise`) starts higher rather
    than squeeze its strips under STRIP_MM. The top card always ends on screen."""
    if total <= 0:
        return []
    top = layout.columns[column].top
    room = max(0.0, layout.column_bottom - layout.card_h - top)
    up_gaps = max(0, total - down - 1)
    fd, fu = layout.fan_down, max(layout.fan_up, layout.fan_open)
    need = fd * down + fu * up_gaps
    if 0 < need <= room:  # room to spare: open up, the widest gap no wider than the peers'
        scale = min(room / need, max(1.0, layout.card_h * OPEN_FAN_MAX / fu))
        fd, fu = fd * scale, fu * scale
    elif need > room and column < len(layout.rise):  # rise only to keep the least strips
        least = layout.fan_down_min * down + math.ceil(STRIP_MM * layout.px_per_mm) * up_gaps
        rise = max(0, min(layout.rise[column], math.ceil(least - room)))
        top, room = top - rise, room + rise
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
    least_text: int = 0,
) -> Layout:
    """The layout for a ``width`` x ``height`` window and a game with ``columns`` columns and
    ``cells`` free cells; the info bar tall enough for text of at least ``least_text`` (a
    small table in part of the screen: its words as large as the full screen's)."""
    width, height = max(width, 240), max(height, 240)
    ppm = px_per_mm or DEFAULT_PX_PER_MM
    finger = FINGER_MM * ppm
    portrait = height > width
    short = min(width, height)
    margin = max(4, round(short * 0.014))
    n = columns
    buttons: dict[Button, Rect] = {}
    if portrait:
        bar_h = _bar_height(round(_clamp(height * 0.034, 26, 56)), least_text)
        info_bar = Rect(0, 0, width, bar_h)
        by = _portrait_buttons(buttons, width, height, margin, finger, text_size(bar_h))
        area = Rect(margin, bar_h + margin, width - 2 * margin, by - margin - bar_h - margin)
        title = Rect(area.left, area.top, area.width, 2 * line_height(text_size(bar_h)))
        area.height -= title.height + margin
        area.top = title.bottom + margin
        table = _top_row_table(area, n, cells, ppm)._replace(title=title)
    else:
        bar_h = _bar_height(round(_clamp(height * 0.05, 22, 46)), least_text)
        info_bar = Rect(0, 0, width, bar_h)
        panel_w = round(_clamp(width * 0.1, max(finger, 80), 170))  # a slim strip of buttons
        panel = Rect(width - panel_w - margin, bar_h + margin, panel_w, height - bar_h - 2 * margin)
        bh = min((panel.height - margin * (len(BUTTONS) - 1)) / len(BUTTONS), panel_w * 1.1)
        total_h = bh * len(BUTTONS) + margin * (len(BUTTONS) - 1)
        y0 = panel.top + (panel.height - total_h) / 2
        for i, name in enumerate(BUTTONS):
            buttons[name] = Rect(panel.left, round(y0 + i * (bh + margin)), panel_w, round(bh))
        area = Rect(margin, bar_h + margin, panel.left - 2 * margin, height - bar_h - 2 * margin)
        line_h = line_height(text_size(bar_h))
        table = _side_table(area, n, cells, ppm, line_h)
        if cells:
            row = _landscape_row_table(area, n, cells, ppm, line_h)
            ems, lines = row.title.width / text_size(bar_h), row.title.height / line_h
            title_fits = ems >= TITLE_ROW_EMS and lines >= TITLE_ROW_LINES and ems * lines >= 50
            if title_fits and row.card_w > table.card_w:
                table = row
    return Layout(
        width=width,
        height=height,
        portrait=portrait,
        card_w=table.card_w,
        card_h=table.card_h,
        gap=table.gap,
        margin=margin,
        columns=table.columns,
        column_bottom=area.bottom,
        foundations=table.foundations,
        cells=table.cells,
        info_bar=info_bar,
        buttons=buttons,
        title=table.title,
        px_per_mm=ppm,
        fan_open=table.fan_open,
        rise=table.rise,
    )


def _bar_height(bar_h: int, least_text: int) -> int:
    """``bar_h``, or taller where its text would be smaller than ``least_text``."""
    while text_size(bar_h) < least_text:
        bar_h += 1
    return bar_h


def _portrait_buttons(
    buttons: dict[Button, Rect], width: int, height: int, margin: int, finger: float, text: int
) -> int:
    """Portrait: the buttons in two rows at the bottom (three over two, centred), each wide
    enough for its label beside its icon at the info bar's text size ``text`` (five in a row
    left room for a label under the icon, in Russian, of only 20 px against the bar's 24);
    returns the top of the upper row."""
    button_h = round(_clamp(height * 0.045, min(finger, height * 0.08), height * 0.07))
    button_h = max(button_h, math.ceil(text / BUTTON_LABEL))
    per_row = math.ceil(len(BUTTONS) / 2)
    bw = (width - margin * (per_row + 1)) / per_row
    rows = [BUTTONS[:per_row], BUTTONS[per_row:]]
    for r, names in enumerate(rows):
        y = height - (2 - r) * (button_h + margin)
        x0 = (width - len(names) * bw - (len(names) - 1) * margin) / 2
        for i, name in enumerate(names):
            buttons[name] = Rect(round(x0 + i * (bw + margin)), y, round(bw), button_h)
    return height - 2 * (button_h + margin)


class _Table(NamedTuple):
    """Where the cards go inside the table's area."""

    card_w: int
    card_h: int
    gap: int
    columns: tuple[Rect, ...]
    foundations: tuple[Rect, ...]
    cells: tuple[Rect, ...]
    title: Rect
    fan_open: float = 0.0
    rise: tuple[int, ...] = ()


def _top_row_table(area: Rect, n: int, cells: int, ppm: float) -> _Table:
    """Portrait: a top row of slots (cells left, foundations right) over the columns, whose fan
    opens up to use the height below. The title is the caller's (an empty rect here)."""
    card_w = int(min(area.width / (n + (n - 1) * GAP_RATIO), area.height / 4.2 / CARD_RATIO))
    card_h = int(card_w * CARD_RATIO)
    gap = max(3, int(card_w * GAP_RATIO))
    return _row_over_columns(area, n, cells, ppm, card_w, max(gap, int(card_h * 0.12)))


def _row_over_columns(
    area: Rect, n: int, cells: int, ppm: float, card_w: int, row_gap: int, lift: int = 0
) -> _Table:
    """A top row of slots (cells left, foundations right) and the columns ``row_gap`` under
    it, all at one height, centred in ``area``; the fan opens up to use the height below. The
    columns between the cells and the foundations (under the title) may rise ``lift`` pixels
    when they grow too long (:attr:`Layout.rise`). No title (an empty rect at the area's
    corner)."""
    card_h = int(card_w * CARD_RATIO)
    gap = max(3, int(card_w * GAP_RATIO))
    row_w = n * card_w + (n - 1) * gap
    x0 = area.left + (area.width - row_w) // 2
    xs = [x0 + i * (card_w + gap) for i in range(n)]
    row_y = area.top
    foundations = tuple(Rect(xs[c], row_y, card_w, card_h) for c in range(n - 4, n))
    cell_rects = tuple(Rect(xs[c], row_y, card_w, card_h) for c in range(cells))
    title = Rect(area.left, area.top, 0, 0)
    col_y = row_y + card_h + row_gap
    under_title = range(cells, n - 4)
    columns = tuple(Rect(x, col_y, card_w, card_h) for x in xs)
    rise = tuple(lift if i in under_title else 0 for i in range(n))
    fan_open = _open_fan(card_h, area.bottom - col_y, ppm)
    return _Table(card_w, card_h, gap, columns, foundations, cell_rects, title, fan_open, rise)


def longest_column(columns: int, cells: int, index: int | None = None) -> int:
    """The most cards a column of a game with free cells (Seahaven) can ever hold: its dealt
    cards (five, six on column 2 when the second free cell's card is dealt there) and a run of
    twelve on a king left on top of them. Of column ``index``, or of the longest column."""
    extra = max(0, 52 - 5 * columns - cells)  # dealt one each from column 2 on
    dealt = 5 + (extra if index is None else int(1 <= index <= extra))
    return dealt + 12


def _landscape_row_table(area: Rect, n: int, cells: int, ppm: float, line_h: int) -> _Table:
    """Landscape with free cells (Seahaven): a top row of slots (cells left, foundations right,
    the title between them) over the columns, which take the whole width. The cards are as
    wide as the width allows, but no taller than lets the longest column a game can have
    (:func:`longest_column`) keep 3 mm strips under the row. Where a column under the title
    can grow longer than the others (one free cell: column 2 holds six dealt cards) and
    would not fit, the columns under the title may rise, under a title of TITLE_ROW_LINES
    lines, rather than every card being smaller: they start level with the others and rise
    only as far as a column grown that long needs (:func:`fan_offsets`)."""
    by_width = area.width / (n + (n - 1) * GAP_RATIO)
    strip = round(STRIP_MM * ppm)  # whole pixels: every gap of the fan at least this
    row_gap = max(3, int(by_width * GAP_RATIO) // 2)
    under_title = range(cells, n - 4)
    slot_longest = max(longest_column(n, cells, i) for i in range(n) if i not in under_title)
    title_longest = max((longest_column(n, cells, i) for i in under_title), default=0)
    # The row's card and the column's last, under the slots; under the title, the title's
    # least lines and the column's last card.
    tallest = int((area.height - row_gap - (slot_longest - 1) * strip) / 2)
    title_room = area.height - row_gap - (title_longest - 1) * strip
    tallest = min(tallest, max(title_room - TITLE_ROW_LINES * line_h, title_room // 2))
    card_w = max(1, int(min(by_width, (tallest + 0.999) / CARD_RATIO)))
    card_h = int(card_w * CARD_RATIO)
    row_gap = max(3, int(card_w * GAP_RATIO) // 2)
    # Where they may rise, up to right under the title's least lines.
    lifted = area.height - row_gap - card_h - (title_longest - 1) * strip < card_h
    lift = card_h - TITLE_ROW_LINES * line_h if lifted else 0
    table = _row_over_columns(area, n, cells, ppm, card_w, row_gap, lift)
    xs = [col.left for col in table.columns]
    title_left = xs[cells] if cells < n - 4 else xs[-1] + card_w
    width = max(0, xs[n - 4] - table.gap - title_left)
    return table._replace(title=Rect(title_left, area.top, width, table.card_h - lift))


def _open_fan(card_h: int, height: int, ppm: float) -> float:
    """The face-up gap a column of PLANNED_COLUMN cards could have in ``height`` pixels, at
    most OPEN_FAN_MAX of a card (past 5.5 mm a wider fan helps nobody)."""
    room = (height - card_h) / (PLANNED_COLUMN - 1)
    return max(0.0, min(room, card_h * OPEN_FAN_MAX, 5.5 * ppm))


def _side_table(area: Rect, n: int, cells: int, ppm: float, line_h: int) -> _Table:
    """Landscape: the columns take the whole height of ``area``; the foundations (2 x 2), the
    free cells (two a row under them) and the title (lines ``line_h`` high, from under the
    block's last row to the bottom, as wide as the room up to the buttons) stand beside
    them."""
    gap_ratio = GAP_RATIO
    units = n + 2  # the columns and the block's two
    by_width = area.width / (units + (units + 1) * gap_ratio)
    # A column of PLANNED_COLUMN cards with 3.3 mm strips still fits the height (though never
    # a card smaller than a fifth of it), and so do the block's rows.
    by_fan = max(area.height - (PLANNED_COLUMN - 1) * 3.3 * ppm, area.height / 4.8) / CARD_RATIO
    by_block = area.height / ((4.3 if cells else 2.1) * CARD_RATIO)
    rows_n = 2 + math.ceil(cells / 2)  # and the title's lines under them (a very wide screen)
    by_title = (area.height - TITLE_SIDE_LINES * line_h) / (rows_n * (CARD_RATIO + gap_ratio))
    card_w = int(min(by_width, by_fan, by_block, by_title))
    card_h = int(card_w * CARD_RATIO)
    gap = max(3, int(card_w * gap_ratio))
    row_w = units * card_w + (units + 1) * gap
    x0 = area.left + (area.width - row_w) // 2
    xs = [x0 + i * (card_w + gap) for i in range(n)]
    top = area.top
    columns = tuple(Rect(x, top, card_w, card_h) for x in xs)
    bx = xs[-1] + card_w + 2 * gap
    block = [bx, bx + card_w + gap]
    rows = [top + r * (card_h + gap) for r in range(rows_n + 1)]
    foundations = tuple(Rect(block[s % 2], rows[s // 2], card_w, card_h) for s in range(4))
    cell_rects = tuple(Rect(block[c % 2], rows[2 + c // 2], card_w, card_h) for c in range(cells))
    title_top = rows[rows_n]
    title = Rect(bx, title_top, area.right - bx, max(0, area.bottom - title_top))
    return _Table(card_w, card_h, gap, columns, foundations, cell_rects, title)
