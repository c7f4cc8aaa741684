"""Seahaven uses the screen (issue 25, item 1): in landscape its free cells and foundations
stand in a row over the ten columns, as wide as they are, so the cards are as large as the width
allows: at least 64 px wide on the 7" 800x480 panel and 82 px at 1024x600 (52 and 67 with the
block beside the columns), and no smaller than before at 720x1280 and 1920x1080. Read from
``main.py --layout-json``; the long-column targets are in test_touch_layout.py."""

from __future__ import annotations

import json

import pytest

from tests.test_layout_json import ROOT, run_main

SHOTS = ROOT / "out" / "screens" / "seahaven"

# size, code, least card width (before: 52, 67, 64, 128 with four free cells; 52 with one)
CASES = [
    ("800x480", "SH1-C4-AAAAAJ2", 64),
    ("800x480", "SH1-C1-AAAAAJ2", 56),
    ("1024x600", "SH1-C2-AAAAAJ2", 82),
    ("720x1280", "SH1-C4-AAAAAJ2", 64),
    ("1920x1080", "SH1-C4-AAAAAJ2", 128),
]


@pytest.mark.parametrize(("size", "code", "least"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_seahaven_cards_use_the_width(tmp_path, size, code, least):
    out = tmp_path / "table.json"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{code[:6]}-{size}.png"
    proc = run_main(
        "--size", size, "--code", code, "--layout-json", str(out), "--screenshot", str(shot)
    )
    assert proc.returncode == 0, proc.stderr
    cards = json.loads(out.read_text())["cards"]
    widths = {c["rect"][2] for c in cards}
    assert len(widths) == 1 and widths.pop() >= least
    # The free cells and the foundations lie above every column card.
    row = [c for c in cards if c["pile"] not in {f"t{i}" for i in range(1, 11)}]
    columns = [c for c in cards if c not in row]
    assert row, "the deal puts cards in the free cells"
    assert max(c["rect"][1] + c["rect"][3] for c in row) < min(c["rect"][1] for c in columns)
