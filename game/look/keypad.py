"""The on-screen keypad of the game code (game.scenes.keypad.KeypadScene) and of the operator's PIN
(game.scenes.pin.PinScene): a title, the typed text in a field, a line for a hint or an error,
then rows of keys on a grid of equal columns (a key may span several).

Each keypad says what differs in a :class:`KeypadLook` and lists its keys; :func:`add_keypad`
lays them out on the dialog's panel from the screen size and adds them as controls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pygame import Rect

from game.look.fonts import font
from game.look.ui import Control, Extra, wrap

if TYPE_CHECKING:
    from game.scenes.dialog import Dialog

# A key's text size: "glyph" a letter, digit or sign that fills the key, "word" a word on a wide
# key, "short" a short word on a one-column key, "plain" the dialog's usual text size.
KeyText = Literal["glyph", "word", "short", "plain"]


@dataclass(frozen=True)
class Key:
    label: str
    action: Callable[[], None]
    span: float = 1.0  # its width in columns
    text: KeyText = "glyph"
    selected: bool = False  # drawn as the main choice (Play, OK)


@dataclass(frozen=True)
class KeypadLook:
    """What differs between the keypads; sizes in the dialog's units (Dialog.unit)."""

    columns: int
    max_w: float  # the panel's largest size
    max_h: float
    title_size: float
    message_h: float
    square_keys: bool = False  # portrait: square keys, the panel only as tall as its content


def add_keypad(
    dialog: Dialog,
    look: KeypadLook,
    *,
    title: str,
    text: str,
    message: str,
    error: bool,
    rows: list[list[Key]],
) -> None:
    """Set ``dialog.panel`` and add the keypad's controls: ``title``, the field showing
    ``text``, ``message`` (in the error colour when ``error``), then ``rows`` of keys."""
    u = dialog.unit()
    w, h = dialog.app.screen.get_size()
    cols = look.columns
    # Square keys on a portrait screen take the height they need (fit_panel below).
    portrait = look.square_keys and h > w
    dialog.panel = dialog.panel_rect(max_w=u * look.max_w, max_h=h if portrait else u * look.max_h)
    pad = int(u * 0.3)
    title_h, field_h, message_h = int(u * 0.7), int(u * 0.95), int(u * look.message_h)
    # The message's lines whole at its size (a narrow portrait panel wraps it onto more lines
    # rather than shrinking it under the info bar's text size).
    message_size = max(dialog.least, int(u * 0.3))
    lines = wrap(message, dialog.panel.width - 2 * pad, message_size)
    message_h = max(message_h, len(lines) * font(message_size).get_linesize())
    gap = max(4, int(u * 0.12))
    if portrait:
        side = (dialog.panel.width - 2 * pad - gap * (cols - 1)) / cols
        need = 2 * pad + title_h + field_h + message_h + 3 * gap + len(rows) * (side + gap)
        dialog.fit_panel(need)
    inner = dialog.panel.inflate(-2 * pad, -2 * pad)
    y = inner.top
    header = (
        (title, title_h, "title", int(u * look.title_size)),
        (text, field_h, "field", int(u * 0.5)),
        (message, message_h, "error" if error else "text", message_size),
    )
    for label, height, kind, size in header:
        extra: Extra = {"center": True} if kind in ("error", "text") else {}
        rect = Rect(inner.left, y, inner.width, height)
        size = max(dialog.least, size)  # never under the info bar's text
        dialog.add(Control(rect, label, kind=kind, size=size, extra=extra))
        y += height + gap
    key_h = (inner.bottom - y - gap * (len(rows) - 1)) / len(rows)
    if look.square_keys and h > w:
        key_h = min(key_h, inner.width / cols)
    key_w = (inner.width - gap * (cols - 1)) / cols
    sizes: dict[KeyText, int] = {
        "glyph": int(min(key_h, key_w) * 0.45),
        "word": max(dialog.least, int(min(key_h * 0.4, u * 0.36))),
        "short": max(dialog.least, int(min(key_h, key_w) * 0.32)),
        "plain": 0,
    }
    for r, row in enumerate(rows):
        top = round(y + r * (key_h + gap))
        column = 0.0
        for key in row:
            left = inner.left + column * (key_w + gap)
            width = key_w * key.span + gap * (key.span - 1)
            rect = Rect(round(left), top, round(width), round(key_h))
            size = sizes[key.text]
            dialog.add(Control(rect, key.label, key.action, selected=key.selected, size=size))
            column += key.span
