"""The operator's PIN keypad (the way to the operator menu and the kiosk's exit)."""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.look.keypad import Key, KeypadLook, add_keypad
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost, Kiosk
from game.kiosk.models import PinResult

log = logging.getLogger("solitaire.kiosk")
PIN_KEYPAD = KeypadLook(columns=3, max_w=7.5, max_h=10, title_size=0.45, message_h=0.8)


class PinScene(Dialog):
    """The operator's keypad: digits, erase, OK, cancel. The right PIN opens the operator menu
    (game.scenes.operator: leave with EXIT_OPERATOR, clear the high scores, statistics); wrong
    ones are throttled (PinPad); an untouched keypad closes itself."""

    name = "pin"

    closable = True

    def __init__(self, app: AppHost, controller: Kiosk) -> None:
        self.controller = controller
        self.pad = controller.pin
        self.message = ""
        self.shown_wait = -1
        self.pad.open(app.clock.time)
        super().__init__(app)

    def build(self) -> None:
        tr = self.tr
        now = self.app.clock.time
        if not self.pad.stored_hash:
            message, error = tr("kiosk.pin_none"), True
        elif self.pad.is_locked(now):
            wait = self.seconds_left(now)
            self.shown_wait = wait
            message, error = tr("kiosk.pin_wait", seconds=wait), True
        elif self.message:
            message, error = self.message, True
        else:
            message, error = tr("kiosk.pin_hint"), False
        digits = [Key(digit, partial(self.press, digit)) for digit in "123456789"]
        add_keypad(
            self,
            PIN_KEYPAD,
            title=tr("kiosk.pin_title"),
            text=self.pad.masked,
            message=message,
            error=error,
            rows=[
                digits[0:3],
                digits[3:6],
                digits[6:9],
                [
                    Key("⌫", partial(self.press, "back")),
                    Key("0", partial(self.press, "0")),
                    Key(tr("kiosk.ok"), partial(self.press, "ok"), text="short", selected=True),
                ],
                [Key(tr("dialog.cancel"), partial(self.press, "cancel"), 3.0, "plain")],
            ],
        )

    def seconds_left(self, now: float) -> int:
        """The wait as shown: whole seconds, rounded up (a wait of 120 s shows 120, not 121;
        the millionth of a second that adding to the clock's time leaves does not count)."""
        return math.ceil(self.pad.wait_left(now) - 1e-6)

    def press(self, key: str) -> None:
        result = self.pad.press(key, self.app.clock.time)
        self.message = ""
        if result is PinResult.ACCEPTED:  # the operator menu: leave, clear tables, statistics
            log.info("operator PIN accepted: operator menu")
            self.app.scenes.pop(self)
            self.app.scenes.open("operator", controller=self.controller)
            return
        if result is PinResult.CANCELLED:
            self.close()
            return
        if result is PinResult.REJECTED:
            self.message = self.tr("kiosk.pin_wrong")
            log.warning("operator PIN: wrong PIN")
        elif result is PinResult.LOCKED:
            log.warning("operator PIN: too many wrong PINs, waiting")
        self.rebuild()

    def on_key(self, event: pygame.event.Event) -> None:
        char = getattr(event, "unicode", "") or ""
        if event.key == pygame.K_ESCAPE:
            self.press("cancel")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.press("ok")
        elif event.key == pygame.K_BACKSPACE:
            self.press("back")
        elif char.isdigit() and char.isascii():
            self.press(char)

    def deadline(self) -> float | None:
        """An untouched keypad closes; a wait counts down by the second."""
        now, pad = self.app.clock.time, self.pad
        times = [pad.last_input + pad.timeout_s]
        if pad.is_locked(now):
            left = pad.wait_left(now)
            times.append(now + (left % 1.0 or 1.0))  # the shown number changes
        return min(times)

    def update(self, dt: float) -> None:
        now = self.app.clock.time
        if self.pad.expired(now):
            self.press("cancel")
            return
        if self.pad.is_locked(now) and self.seconds_left(now) != self.shown_wait:
            self.rebuild()
        elif not self.pad.is_locked(now) and self.shown_wait != -1:
            self.shown_wait = -1
            self.rebuild()
