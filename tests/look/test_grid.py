"""The dialogs' declarative layout (game.look.grid): rows and columns of fixed sizes and shares,
gaps between them, snapped to whole pixels; no display needed."""

from __future__ import annotations

import pytest
from pygame import Rect

from game.look.grid import Fill, columns, extent, free, rows, share, sizes

pytestmark = pytest.mark.unit


def test_fixed_rows_stack_from_the_top_with_their_gaps():
    assert rows(Rect(10, 20, 300, 200), [40, 30, 50], gap=8) == [
        Rect(10, 20, 300, 40),
        Rect(10, 68, 300, 30),
        Rect(10, 106, 300, 50),
    ]


def test_a_fill_takes_what_the_fixed_tracks_and_gaps_leave():
    title, body, buttons = rows(Rect(0, 0, 100, 200), [40, Fill(), 48], gap=8)
    assert body == Rect(0, 48, 100, 96)
    assert buttons.bottom == 200  # the last row ends at the box's bottom
    assert title.height == 40


def test_fills_share_by_weight():
    assert sizes(90, [Fill(1), Fill(2)]) == [30.0, 60.0]
    assert sizes(100, [10, Fill(), Fill(3)], gap=10) == [10.0, 17.5, 52.5]


def test_a_fill_gets_nothing_when_the_fixed_tracks_take_it_all():
    assert sizes(50, [40, Fill(), 30], gap=5) == [40.0, 0.0, 30.0]
    assert free(50, [40, Fill(), 30], gap=5) == 0.0


def test_the_room_the_fills_share_and_one_share_of_it():
    """What a dialog asks before it lays out: the room its rows of content get (the fixed
    rows and every gap, tight ones too, taken out) and an even row's height."""
    tracks = [40, Fill(), Fill(), 30]
    assert free(200, tracks, gap=[10, 4, 10]) == 106.0
    assert share(200, tracks, gap=[10, 4, 10]) == 53.0
    assert share(100, [10, Fill(), Fill(3)], gap=10) == 17.5  # one weight's share


def test_one_gap_for_each_pair_of_tracks():
    tops = [r.top for r in rows(Rect(0, 0, 10, 100), [10, 10, 10, 10], gap=[2, 4, 6])]
    assert tops == [0, 12, 26, 42]
    with pytest.raises(ValueError, match="4 tracks need 3 gaps, not 2"):
        rows(Rect(0, 0, 10, 100), [10, 10, 10, 10], gap=[2, 4])


def test_equal_columns_are_as_even_as_pixels_allow_and_never_drift():
    # Five steps of 48.4 px, 6 px apart: the error of rounding never builds up along the row.
    steps = columns(Rect(100, 5, 266, 40), [Fill()] * 5, gap=6)
    assert [r.left for r in steps] == [100, 154, 208, 263, 317]
    assert {r.width for r in steps} == {48}
    assert all(r.top == 5 and r.height == 40 for r in steps)
    assert steps[-1].right == 365  # within the box (366): never past its right edge


def test_a_start_is_the_pixel_it_falls_in_and_a_size_is_rounded():
    # Row tops at 0, 30.6, 61.2: floored to 0, 30, 61 (as the dialogs' rows always were).
    assert [(r.top, r.height) for r in rows(Rect(0, 0, 1, 100), [30.6] * 3)] == [
        (0, 31),
        (30, 31),
        (61, 31),
    ]


def test_a_label_column_and_the_rest_of_the_row():
    label, rest = columns(Rect(20, 0, 400, 50), [112, Fill()])
    assert label == Rect(20, 0, 112, 50)
    assert rest == Rect(132, 0, 288, 50)


def test_extent_is_the_tracks_and_their_gaps():
    assert extent([40, 30, 50], gap=8) == 136
    assert extent([40, 30], gap=[5]) == 75
    assert extent([]) == 0
