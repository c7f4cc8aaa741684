"""The table's gestures (game.input's taps, double taps, drags and drops, and the keys) turned
into the table scene's commands (game.table.scene.TableScene.handle hands them here): a tap
chooses or places a card (game.table.select), presses a button, or sends a card where
game.table.placement says; a refused one is answered (game.table.feedback)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame import Rect

import game.table.placement as place
from engine import FOUNDATION, IllegalMove
from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.scene import Event
from game.table.animation import fly_back, glide_on
from game.table.feedback import tap_refusal
from game.table.flow import key_command
from game.table.gesture import LastTap, lift_drag

if TYPE_CHECKING:
    from game.table.seat import Seat


def handle(table: Seat, event: Event) -> bool:
    if isinstance(event, pygame.event.EventType):
        return handle_key(table, event)
    if isinstance(event, Press):
        table.finish_tweens()
        table.model.press(event.pos, table.now())  # the column under the finger (held?)
        table.model.toast, table.model.pending_refusal = None, None
        table.model.pressed_button = table.button_at(event.pos)
        table.model.pressed_card = None if table.model.pressed_button else table.card_at(event.pos)
        return True
    table.model.pressed_card = None  # the finger moved or let go: the card lies down again
    if isinstance(event, Tap):
        table.model.pressed_button = None
        on_tap(table, event.pos)
    elif isinstance(event, DoubleTap):
        table.model.pressed_button = None
        on_double_tap(table, event)
    elif isinstance(event, DragStart):
        table.model.pressed_button = None
        on_drag_start(table, event)
    elif isinstance(event, DragMove):
        if table.model.drag:
            table.model.drag.pos = event.pos
    elif isinstance(event, Drop):
        on_drop(table, event.pos)
    elif isinstance(event, DragCancel):
        on_drop(table, None)
    if isinstance(event, (Tap, DoubleTap, Drop, DragCancel)):  # the gesture is done
        table.model.tweens = glide_on(
            table.model.tweens, table.model.lifted(table.now()), table.now()
        )
    return True


def handle_key(table: Seat, event: pygame.event.Event) -> bool:
    name = key_command(event)
    if name:
        table.press_button(name)
    return name is not None


def on_tap(table: Seat, pos: tuple[int, int]) -> None:
    table.finish_tweens()
    used, tap = table.chooser.tap(pos, table.app.settings)  # Tap to place: a card, its place
    if used:
        table.model.last_tap = tap
        return
    name = table.button_at(pos)
    if name:
        table.model.last_tap = None
        table.press_button(name)
        return
    if table.model.layout.info_bar.collidepoint(pos) and table.hints.offer_undo():
        return  # "no longer winnable": back to where it was, if the player says so
    card = table.card_at(pos)
    if card is None:
        table.model.last_tap = LastTap(None, False)
        return
    acted = False
    if table.model.game.locate(card)[0] != FOUNDATION:
        one_tap = table.app.settings.one_tap
        game = table.model.game
        move = place.double_tap_move(game, card) if one_tap else game.tap_move(card)
        if move is not None:
            acted = table.push_move(move)
        elif one_tap and not place.settled_king(table.model.game, card):  # found no place
            table.refuse_move([card], table.model.game.why_stuck(card))
        elif not one_tap:  # cannot go home: say why, unless a second tap follows
            table.model.pending_refusal = tap_refusal(table.model.game, card, refusal_due(table))
    table.model.last_tap = LastTap(card, acted)


def refusal_due(table: Seat) -> float:
    """When a tap's refusal is answered: once no second tap can make it a double tap."""
    double = table.app.settings.double_tap
    return table.app.clock.time + (table.app.reader.tuning.double_tap_ms / 1000 if double else 0)


def on_double_tap(table: Seat, event: DoubleTap) -> None:
    if not table.app.settings.double_tap:
        on_tap(table, event.pos)
        return
    table.finish_tweens()
    last, table.model.last_tap, table.model.pending_refusal = table.model.last_tap, None, None
    if last is None:
        on_tap(table, event.pos)  # the first tap went to a button or another scene
        return
    if last.card is None or last.acted:
        return  # nothing under the first tap, or it already moved: never act again
    card = last.card
    if table.model.game.locate(card)[0] == FOUNDATION:
        return  # foundation cards come back only by dragging
    move = place.double_tap_move(table.model.game, card)
    if move is not None:
        table.push_move(move)
    elif not place.settled_king(table.model.game, card):  # a king at the bottom of its column stays
        table.refuse_move([card], table.model.game.why_stuck(card))


def on_drag_start(table: Seat, event: DragStart) -> None:
    table.finish_tweens()
    table.model.last_tap = None
    if table.button_at(event.start) or table.model.game.is_won:
        return  # a won game is finished: its cards stay home
    card = table.card_at(event.start)
    if card is None:
        return
    try:
        table.model.drag = lift_drag(table.model.game, card, table.rest(), event.start, event.pos)
    except IllegalMove as refusal:
        table.refuse_move([card], refusal)
        return
    table.repaint()
    table.app.hooks.lifted(table.model.game, card)


def on_drop(table: Seat, pos: tuple[int, int] | None) -> None:
    drag, table.model.drag = table.model.drag, None
    if drag is None:
        return
    table.repaint()
    if pos is not None:
        drag.pos = pos
    origin = drag.origin()
    first = origin[drag.card]
    rect = Rect(int(first[0]), int(first[1]), table.model.layout.card_w, table.model.layout.card_h)
    dest = table.model.places.drop_dest(rect) if pos is not None else None
    auto = pos is not None and table.app.settings.auto_placement
    near = place.distance_from(rect, table.model.places.move_rect)
    move, refusal, aimed = place.drop_move(table.model.game, drag.card, dest, auto=auto, near=near)
    if move is not None:
        table.push_move(move, origin)
        return
    # Refused or dropped nowhere: fly back.
    now = table.app.clock.time
    table.model.tweens += fly_back(drag.group, origin, table.rest(), now, table.model.layout)
    if refusal is not None:
        table.refuse_move(drag.group[:1], refusal, aimed)
