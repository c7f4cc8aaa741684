"""The initials keypad, arcade style: a win that entered a high-score table is signed with three
letters A-Z (game.arcade.initials), or not (Skip). A blocked word is refused with a message and
Save stays off until the letters change."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.arcade.initials import LETTERS, InitialsInput
from game.look import ui
from game.look.keypad import Key, KeypadLook, add_keypad
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost

INITIALS_KEYPAD = KeypadLook(
    columns=9, max_w=13, max_h=9.5, title_size=0.5, message_h=0.75, square_keys=True
)


class InitialsScene(Dialog):
    """Three letters for the last win's high-score entries (app.arcade.sign). ``ranks``: the
    lines that say where the win stands, shown under the title."""

    name = "initials"

    def __init__(self, app: AppHost, ranks: str = "") -> None:
        self.input = InitialsInput(blocked=app.arcade.blocked)
        self.ranks = ranks
        self.done = False
        super().__init__(app)

    def build(self) -> None:
        tr, cols = self.tr, INITIALS_KEYPAD.columns
        letters = [Key(letter, partial(self.type, letter)) for letter in LETTERS]
        letters.append(Key("⌫", self.erase))
        refused = self.input.refused
        if refused:
            message = tr("arcade.initials_blocked")
        else:
            message = " · ".join(filter(None, (self.ranks, tr("arcade.initials_hint"))))
        last = [
            Key(tr("arcade.skip"), self.skip, cols / 2, "word"),
            Key(tr("arcade.save"), self.save, cols / 2, "word", selected=True),
        ]
        add_keypad(
            self,
            INITIALS_KEYPAD,
            title=tr("arcade.initials_title"),
            text=self.input.shown,
            message=message,
            error=refused,
            rows=[letters[i : i + cols] for i in range(0, len(letters), cols)] + [last],
        )
        for control in self.controls:
            if control.action == self.save:  # lit and tappable once three letters may go
                control.enabled = control.selected = self.input.ready

    def type(self, letter: str) -> None:
        self.input.type(letter)
        self.rebuild()

    def erase(self) -> None:
        self.input.erase()
        self.rebuild()

    def save(self) -> None:
        """Sign the entry with the letters (refused ones never get here: Save is off)."""
        if not self.input.ready:
            self.rebuild()
            return
        self.done = self.app.arcade.sign(self.input.text)
        self.close()

    def skip(self) -> None:
        self.close()

    def leave(self) -> None:
        if not self.done:  # skipped, closed, or the kiosk went idle: nobody asks again
            self.done = self.app.arcade.sign("")

    def paint(self, screen: pygame.Surface) -> None:
        """An opaque panel: the win screen's figures under it must not show through."""
        ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)), alpha=255)
        for control in self.controls:
            self.paint_control(screen, control)

    def on_key(self, event: pygame.event.Event) -> None:
        char = (getattr(event, "unicode", "") or "").upper()
        if event.key == pygame.K_ESCAPE:
            self.skip()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.save()
        elif event.key == pygame.K_BACKSPACE:
            self.erase()
        elif len(char) == 1 and char in LETTERS:
            self.type(char)
