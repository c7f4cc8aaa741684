"""The table's gestures (game.input's taps, double taps, drags and drops, and the keys) turned
into the table model's commands (game.table.scene.TableScene.handle hands them here): what
lies under the finger is the scene's to say (a button, the info bar, a card, a place); what a
tap, a double tap, a choice (Tap to place: game.table.select), a lift or a drop does is the
model's (game.table.model.TableModel.tap, double_tap, choose, lift, drop)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.scene import Event
from game.table.animation import glide_on
from game.table.flow import key_command

if TYPE_CHECKING:
    from game.table.chrome import Seat


def handle(table: Seat, event: Event) -> bool:
    model = table.model
    if isinstance(event, pygame.event.EventType):
        return handle_key(table, event)
    if isinstance(event, Press):
        model.finish_tweens()
        model.press(event.pos, table.now())  # the column under the finger (held?)
        model.toast, model.pending_refusal = None, None
        model.pressed_button = table.button_at(event.pos)
        model.pressed_card = None if model.pressed_button else table.card_at(event.pos)
        return True
    model.pressed_card = None  # the finger moved or let go: the card lies down again
    if isinstance(event, Tap):
        model.pressed_button = None
        on_tap(table, event.pos)
    elif isinstance(event, DoubleTap):
        model.pressed_button = None
        if not table.settings.double_tap or not model.double_tap():
            on_tap(table, event.pos)  # a tap of its own (the first went elsewhere)
    elif isinstance(event, DragStart):
        model.pressed_button = None
        on_drag_start(table, event)
    elif isinstance(event, DragMove):
        if model.drag:
            model.drag.pos = event.pos
    elif isinstance(event, Drop):
        model.drop(event.pos)
    elif isinstance(event, DragCancel):
        model.drop(None)
    if isinstance(event, (Tap, DoubleTap, Drop, DragCancel)):  # the gesture is done
        now = table.now()
        model.tweens = glide_on(model.tweens, model.lifted(now), now)
    return True


def handle_key(table: Seat, event: pygame.event.Event) -> bool:
    name = key_command(event)
    if name:
        table.press_button(name)
    return name is not None


def on_tap(table: Seat, pos: tuple[int, int]) -> None:
    """What lies under a tap: the chosen card's place (Tap to place), a button, the info bar
    (an offer to undo a lost game), else a card or nothing, for the model's commands."""
    model = table.model
    model.finish_tweens()
    name, card = table.button_at(pos), table.card_at(pos)
    if model.choose(name, card, model.places.drop_dest(Rect(pos, (1, 1)))):
        return  # Tap to place: a card chosen, or put where the tap is
    if name:
        model.last_tap = None
        table.press_button(name)
        return
    if model.layout.info_bar.collidepoint(pos) and model.hints.offer_undo():
        return  # "no longer winnable": back to where it was, if the player says so
    model.tap(card)


def on_drag_start(table: Seat, event: DragStart) -> None:
    model = table.model
    model.finish_tweens()
    model.last_tap = None
    if table.button_at(event.start) or model.game.is_won:
        return  # a won game is finished: its cards stay home
    card = table.card_at(event.start)
    if card is not None:
        model.lift(card, event.start, event.pos)
