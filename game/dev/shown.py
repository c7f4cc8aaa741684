"""What a scene shows, as the scripted player reports it and presses it: its texts, its
buttons, a control's action by name."""

from __future__ import annotations

import functools


def shown_texts(scene: object) -> list[str]:
    """The texts a scene shows besides its buttons (a dialog's controls, or what the scene's
    own ``shown_texts()`` says)."""
    own = getattr(scene, "shown_texts", None)
    if callable(own):
        return [str(text) for text in own()]
    controls = getattr(scene, "controls", [])
    return [c.label for c in controls if c.kind != "button"]


def dialog_buttons(scene: object) -> list[dict[str, object]]:
    """The buttons of a dialog on top: name, label, rectangle and whether it is the chosen one."""
    return [
        {
            "name": c.name or action_name(c.action),
            "label": c.label,
            "rect": list(c.rect),
            "selected": c.selected,
        }
        for c in getattr(scene, "controls", [])
        if c.action
    ]


def action_name(action: object) -> str:
    """A control's action by name: a method's name, or for ``partial(open, "rules")`` and
    ``partial(set_locale, "fi")`` the name it was given ("rules", "fi")."""
    if isinstance(action, functools.partial):
        given = [arg for arg in action.args if isinstance(arg, str)]
        return given[0] if given else getattr(action.func, "__name__", "")
    return str(getattr(action, "__name__", ""))
