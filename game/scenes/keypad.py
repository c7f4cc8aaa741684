"""The game-code keypad: the 32 code letters, a dash, delete, clear, play."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from engine import CodeError
from engine.codes import ALPHABET
from game.look.keypad import Key, KeypadLook, add_keypad
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost


KEYPAD_KEYS = tuple(ALPHABET)
CODE_KEYPAD = KeypadLook(
    columns=8, max_w=13, max_h=9.5, title_size=0.42, message_h=0.75, square_keys=True
)


class KeypadScene(Dialog):
    """An on-screen keypad for a game code: the 32 code letters, a dash, delete, clear."""

    name = "keypad"

    def __init__(self, app: AppHost, text: str = "") -> None:
        self.text = text
        self.error = ""
        super().__init__(app)

    def build(self) -> None:
        tr, cols = self.tr, CODE_KEYPAD.columns
        letters = [Key(letter, partial(self.type, letter)) for letter in KEYPAD_KEYS]
        signs = [Key("1", partial(self.type, "1")), Key("-", partial(self.type, "-"))]
        signs.append(Key("⌫", self.delete))
        rows = [letters[i : i + cols] for i in range(0, len(letters), cols)]
        w, h = self.app.screen.get_size()
        if h > w:
            # Portrait (narrow keys): the words get wider keys, on two rows, so that they read
            # at the info bar's size: the signs and clear, then cancel and play.
            rows.append([*signs, Key(tr("keypad.clear"), self.clear, cols - len(signs), "word")])
            rows.append(
                [
                    Key(tr("dialog.cancel"), self.close, cols / 2, "word"),
                    Key(tr("keypad.play"), self.submit, cols / 2, "word", selected=True),
                ]
            )
        else:  # the last row: the signs as wide as a key, then delete, clear, cancel, play
            rows.append(
                [
                    *signs,
                    Key(tr("keypad.clear"), self.clear, 1.5, "word"),
                    Key(tr("dialog.cancel"), self.close, 1.5, "word"),
                    Key(tr("keypad.play"), self.submit, 2.0, "word", selected=True),
                ]
            )
        add_keypad(
            self,
            CODE_KEYPAD,
            title=tr("keypad.title"),
            text=self.text,
            message=self.error or tr("keypad.hint"),
            error=bool(self.error),
            rows=rows,
        )

    def type(self, char: str) -> None:
        if len(self.text) < 20:
            self.text += char
        self.error = ""
        self.rebuild()

    def delete(self) -> None:
        self.text = self.text[:-1]
        self.error = ""
        self.rebuild()

    def clear(self) -> None:
        self.text = ""
        self.error = ""
        self.rebuild()

    def submit(self) -> None:
        try:
            game = self.app.games.new(self.text)
        except CodeError as error:
            self.error = self.tr.refusal(error)
            self.rebuild()
            return
        self.app.table.replace_game(lambda: game)

    def on_key(self, event: pygame.event.Event) -> None:
        key = event.key
        char = getattr(event, "unicode", "") or ""
        if key == pygame.K_ESCAPE:
            self.close()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
        elif key == pygame.K_BACKSPACE:
            self.delete()
        elif char and (char.upper() in ALPHABET or char in "-1"):
            self.type(char.upper())
