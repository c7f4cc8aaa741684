"""A message never hides what it talks about (issue 38 item 5, issue 40 item 16): a refusal, a
hint, the start tip and the indicator's notice lie over free felt (beside the foundations,
under the columns), never over the info bar or a button, never over a card where free felt
is left, and never over the cards they name or the card under the last touch. Read from the
layout report (main.py --layout-json) over many positions of both games: fresh deals, deals
played on, and long columns."""

from __future__ import annotations

import json
import random

import pygame
import pytest

from engine import FOUNDATION, Game, Move
from engine.cards import card_name
from game.dev.report import layout_report
from game.saves.prefs import PlayerSettings
from game.table.gesture import LastTap
from game.table.hints import HintMark
from tests.helpers.tablehelp import make_app
from tests.look.test_touch_layout import position

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280), (1920, 1080), (1280, 800)]
CODES = ["RU1-C-AAAAABB", "RU1-C-AAAAAJ2", "SH1-C1-AAAAAJ2", "SH1-C2-AAAAABB", "SH1-C4-AAAAABB"]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def played(code: str, moves: int, seed: int) -> Game:
    """``code`` played on ``moves`` moves, each a legal one chosen at random (home first)."""
    game, rng = Game.from_code(code), random.Random(seed)
    for _ in range(moves):
        legal = [m for m in game.legal_moves() if not game.is_pointless(m)]
        if not legal:
            break
        home = [m for m in legal if m.dest == FOUNDATION]
        game.play(rng.choice(home or legal))
    return game


def positions(code: str) -> list[Game]:
    key = code.rsplit("-", 1)[0]
    games = [Game.from_code(code), played(code, 12, 1), played(code, 30, 2)]
    if key.startswith("RU"):
        games += [position(key, 3, 6, 20), position(key, 0, 0, 20), position(key, 6, 6, 14)]
    else:
        games += [position(key, 0, 0, 17, run=True), position(key, 9, 0, 17, run=True)]
    return games


def boxes(rects: list[list[int]]) -> list[pygame.Rect]:
    return [pygame.Rect(r) for r in rects]


def check(table, named: list[str], touched: str | None) -> None:
    """The toast on ``table``, read from the layout report as JSON."""
    data = json.loads(json.dumps(layout_report(table)))
    message = data["message"]
    assert message is not None
    box = pygame.Rect(message["rect"])
    where = f"{data['size']} {message['text'][:40]!r} at {box}"
    assert pygame.Rect(0, 0, *data["size"]).contains(box), where
    assert not box.colliderect(pygame.Rect(data["info_bar"])), f"over the info bar: {where}"
    assert box.collidelist(boxes([b["rect"] for b in data["buttons"]])) == -1, where
    cards = {c["card"]: pygame.Rect(c["visible"]) for c in data["cards"] if c["visible"][3]}
    for name in [*named, *([touched] if touched else [])]:
        if name in cards:  # (a foundation's card under its top one shows nothing)
            near = box.inflate(4, 4)  # not even touching it
            assert not near.colliderect(cards[name]), f"at {name}, which it names: {where}"
    covered = [name for name, rect in cards.items() if box.colliderect(rect)]
    assert not covered, f"over {covered} with free felt left: {where}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", CODES)
def test_messages_lie_on_free_felt(size, code):
    app = make_app(code, size=size, settings=PlayerSettings(locale="fi"))
    table, tr = app.table, app.tr
    for game in positions(code):
        table.start_game(game)
        app.step()
        cols = [col for col in game.cols if col]
        longest = max(cols, key=len)
        card = longest[-1]
        # A refusal of the longest column's top card, the card under the finger.
        table.model.last_tap = LastTap(card, False)
        why = game.why_stuck(card)
        table.model.refuse_move([card], why) if why else table.model.refuse(
            [card], tr("table.first_time")
        )
        check(table, [card_name(c) for c in table.model.marks], card_name(card))
        table.model.finish_tweens()
        # A hint: the card and where it goes.
        move = next((m for m in game.legal_moves() if not game.is_pointless(m)), None)
        move = move or Move(longest[-1], (game.cols.index(longest) + 1) % len(game.cols))
        table.model.hints.mark = HintMark(move, app.clock.time + 5)
        table.model.show_toast(tr("table.hint_move", move=table.model.hints.describe(move)))
        hinted = [card_name(move.card)]
        if move.dest < len(game.cols) and game.cols[move.dest]:
            hinted.append(card_name(game.cols[move.dest][-1]))
        check(table, hinted, card_name(card))
        table.model.hints.mark = None
        # The start tip and the indicator's notice, after a tap on the shortest column.
        touched = min(cols, key=len)[-1]
        table.model.last_tap = LastTap(touched, False)
        for text in (tr("table.first_time"), tr("table.lost_offer", move="7♠ → 8♠")):
            table.model.show_toast(text)
            check(table, [], card_name(touched))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_full_table_shrinks_the_message_before_it_covers_a_card(size):
    """A table with little free felt: the message is set smaller (never below its least
    size) rather than lie over a card; and where even that finds no room it still keeps off
    the card it names."""
    app = make_app(game=position("RU1-C", 3, 6, 20), size=size)
    table = app.table
    card = table.model.game.cols[3][-1]
    long_text = " ".join([app.tr("table.first_time")] * 4)
    table.model.refuse([card], long_text)
    data = layout_report(table)
    box = pygame.Rect(data["message"]["rect"])
    assert table.model.toast is not None and table.model.toast.text_size >= 11
    assert not box.colliderect(table.model.places.group_rect(card))
    assert not box.colliderect(table.model.layout.info_bar)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_refused_move_keeps_off_the_place_it_was_aimed_at(size, monkeypatch):
    """A refusal names the card the move was aimed at ("on 8♥ only…"): even with no free felt
    left (a long text on a full table) the message never covers that card."""
    import game.table.model as model_module
    from game.table.refusals import Answer

    app = make_app(game=position("RU1-C", 3, 6, 20), size=size)
    table = app.table
    long_text = " ".join([app.tr("table.first_time")] * 6)
    monkeypatch.setattr(model_module, "explain", lambda *args: Answer(long_text))
    kept_off: list[list[pygame.Rect]] = []
    real = table.model.show_toast

    def show_toast(text, avoid=()):
        kept_off.append([pygame.Rect(r) for r in avoid])
        real(text, avoid)

    monkeypatch.setattr(table.model, "show_toast", show_toast)
    card = table.model.game.cols[3][-1]
    for dest in (0, 1, 2, 4, 5, 6):
        move = Move(card, dest)
        why = table.model.game.check(move)
        assert why is not None
        table.model.refuse_move([card], why, move)
        assert table.model.toast is not None
        target = table.model.places.dest_rect(dest)
        assert target in kept_off[-1], "the message is not told to keep off the aimed card"
        assert not table.model.toast.rect.colliderect(target), (
            dest,
            table.model.toast.rect,
            target,
        )
        assert not table.model.toast.rect.colliderect(table.model.places.group_rect(card))
        table.model.finish_tweens()
