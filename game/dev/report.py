"""What the table shows, as data (``main.py --layout-json``, the scripted player's ``state``,
tests, anyone checking a layout): every card's rectangle, the part of it no other card covers
(and for a covered face-up card of a column that strip's height), its corner index's box, the
buttons as shown, the refusal's marks, the info bar and the message on screen (the toast).
Read from the sprite layer, so it is what is drawn, not what the layout intends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygame import Rect

from engine.cards import card_name
from engine.game import EMPTY

if TYPE_CHECKING:
    from game.table.scene import TableScene
    from game.table.sprites import CardSprite

BUTTON_NAMES = {"new": "newgame"}  # the layout's button names as scripts and reports call them


def button_name(name: str) -> str:
    return BUTTON_NAMES.get(name, name)


def _box(rect: Rect) -> list[int]:
    return [rect.x, rect.y, rect.width, rect.height]


def _uncovered(rect: Rect, covers: list[Rect]) -> Rect:
    """The part of ``rect`` left when the ``covers`` (each as wide as a card, as cards lie on
    the table) are taken off its top or bottom; height 0 when they cover it whole."""
    top, bottom = rect.top, rect.bottom
    for cover in covers:
        if not cover.colliderect(rect):
            continue
        if cover.left > rect.left or cover.right < rect.right:
            continue  # a part of the width only: its side stays in sight
        if cover.top <= top:
            top = max(top, min(bottom, cover.bottom))
        else:
            bottom = min(bottom, max(top, cover.top))
    return Rect(rect.left, top, rect.width, max(0, bottom - top))


def _drawn(sprite: CardSprite) -> Rect:
    """Where the sprite is drawn."""
    assert sprite.rect is not None
    return Rect(sprite.rect)


def _strip(pile: str, face_up: bool, rect: Rect, visible: Rect) -> int | None:
    """The height in pixels that shows of a covered face-up card of a column (what a finger
    can press), else None."""
    covered = pile.startswith("t") and face_up and visible.height < rect.height
    return visible.height if covered else None


def layout_report(scene: TableScene) -> dict[str, Any]:
    """``{"size", "px_per_mm", "cards": [...], "buttons": [...], "marks": [...], "info_bar",
    "message"}`` for the resting table."""
    view, game, lay = scene.view, scene.model.game, scene.model.layout
    assert view is not None
    view.sync()
    piles: list[tuple[int, str]] = []  # columns bottom to top, cells, foundations
    for i, col in enumerate(game.cols):
        piles += [(card, f"t{i + 1}") for card in col]
    piles += [(card, f"c{i + 1}") for i, card in enumerate(game.cells) if card != EMPTY]
    for suit in range(4):
        piles += [(suit * 13 + rank, "f") for rank in range(game.found[suit])]
    shown = [s for s in view.cards if s.resting and s.alive() and s.home is view.rest]
    layer = {s.card: view.rest.get_layer_of_sprite(s) for s in shown}
    cards: list[dict[str, Any]] = []
    for card, pile in piles:
        sprite: CardSprite = view.cards[card]
        rect = scene.model.card_rect(card)
        face_up = scene.model.rest()[card][2]
        if sprite in shown:
            rect = _drawn(sprite)
            covers = [_drawn(s) for s in shown if layer[s.card] > layer[card]]
            visible = _uncovered(rect, covers)
        else:  # a foundation card under the top one
            visible = Rect(rect.left, rect.top, rect.width, 0)
        strip = sprite.shows[4] if len(sprite.shows) > 4 else None
        index = view.art.index_box(card, strip if isinstance(strip, tuple) else None)
        cards.append(
            {
                "card": card_name(card),
                "pile": pile,
                "face_up": face_up,
                "rect": _box(rect),
                "visible": _box(visible),
                "index": _box(index.move(rect.topleft)) if face_up else None,
                "strip": _strip(pile, face_up, rect, visible),
            }
        )
    on_table = scene.shown_buttons()  # Finish in Hint's place when certain
    buttons = [{"name": button_name(n), "rect": _box(r)} for n, r in on_table.items()]
    marks = [
        {"card": card_name(c), "rect": _box(scene.model.places.visible_rect(c))}
        for c in scene.model.marks
    ]
    toast = scene.model.toast
    message = None if toast is None else {"text": toast.text, "rect": _box(toast.rect)}
    return {
        "size": [lay.width, lay.height],
        "px_per_mm": round(lay.px_per_mm, 3),
        "cards": cards,
        "buttons": buttons,
        "marks": marks,  # the cards a refusal outlines now, and the part of each it frames
        "info_bar": _box(lay.info_bar),
        "message": message,  # the toast on screen: its text and its box, else None
    }
