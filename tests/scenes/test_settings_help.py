"""The settings explain themselves at every size (issue 31 item 2, issue 38 item 4): each
toggle's help is readable on the kiosk's own screens in every language, at the info bar's text
size or larger, and shows under its toggle without any tap (800x480, 1024x600, the 720x1280
portrait panel, 1080p); only on a smaller screen (720x400) a band under the toggles shows the
help of the toggle last touched, as soon as the finger is on it. Only a toggle's switch turns it
on or off: a tap on its name or its help changes nothing (on the band's screen it shows the
help). The scripted player's ``state`` lists every text the screen draws, the help included.
Screenshots go to out/screens/ (settings-<size>-<locale>.png)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.dev.script import Player
from game.i18n import LOCALES
from game.look.fonts import font
from game.look.png import save_png
from game.look.switches import switch_layout, switch_zone, tap_point
from game.look.typeset import NBSP
from game.scenes.settings import TOGGLES, SettingsScene
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
SIZES = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.2), ((1920, 1080), None)]
BAND = ((720, 400), 5.0)  # smaller than any kiosk's screen: the help band
ROOMY = {(800, 480), (1024, 600), (720, 1280), (1920, 1080)}  # every help under its toggle


def state_texts(player: Player, path: Path) -> list[str]:
    player.state(str(path))
    texts = json.loads(path.read_text(encoding="utf-8"))["texts"]
    return [text.replace(NBSP, " ") for text in texts]


def shoot(app, name: str) -> None:
    app.full_redraw = True
    app.draw()
    save_png(app.screen, OUT / f"{name}.png")


@pytest.mark.parametrize(("size", "ppm"), [*SIZES, BAND], ids=lambda v: str(v))
def test_every_toggle_explains_itself(size, ppm, tmp_path: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    app = make_app(size=size, px_per_mm=ppm)
    player = Player(app)
    stem = f"settings-{size[0]}x{size[1]}"
    try:
        for locale in LOCALES:
            app.set_locale(locale)
            player.press("settings")
            scene = app.scenes.top
            assert isinstance(scene, SettingsScene)
            least = app.table.model.layout.text_size
            helps = {name: app.tr(f"settings.{name}_help") for name in TOGGLES}
            switches = {c.name: c for c in scene.controls if c.kind == "switch"}
            texts = state_texts(player, tmp_path / "state.json")
            for name, c in switches.items():
                assert app.tr(f"settings.{name}") in texts
                lines = c.extra.get("help_lines", [])
                if size in ROOMY:
                    assert lines, f"{name}: no help under it at {size} in {locale}"
                if lines:  # drawn whole, inside its row, never under the info bar's size
                    assert helps[name] in texts
                    size_px = c.extra["help_size"]
                    assert size_px >= least
                    assert all(font(size_px).size(line)[0] <= c.rect.width for line in lines)
                    assert len(lines) * font(size_px).get_linesize() < c.rect.height
                    assert scene.panel.contains(c.rect)
            band = [c for c in scene.controls if c.kind == "help"]
            if all(c.extra.get("help_lines") for c in switches.values()):
                assert not band
                shoot(app, f"{stem}-{locale}")
            else:  # the band: first how to use it, then the help of each toggle touched
                assert band and band[0].size >= least and scene.panel.contains(band[0].rect)
                assert app.tr("settings.help_prompt") in texts
                shoot(app, f"{stem}-{locale}")
                for name in TOGGLES:
                    before = getattr(app.settings, name)
                    player.press(name)
                    assert getattr(app.settings, name) is not before
                    touched = state_texts(player, tmp_path / "state.json")
                    line = f"{app.tr(f'settings.{name}')}: {helps[name]}"
                    assert line in touched, (name, touched)
                    assert not any(helps[other] in " ".join(touched) for other in helps
                                   if other != name)  # fmt: skip
                    if name == "tap_to_place":
                        shoot(app, f"{stem}-{locale}-touched")
            app.scenes.pop_to_bottom()
    finally:
        app.close()


def test_a_finger_on_a_toggle_shows_its_help_before_it_lets_go() -> None:
    """Where the help is in a band: the help is there while the finger is down, before the
    switch turns (a visitor reads what it does, then may slide off to leave it as it is)."""
    app = make_app(size=BAND[0], px_per_mm=BAND[1])
    try:
        app.scenes.open("settings")
        scene = app.scenes.top
        assert isinstance(scene, SettingsScene)
        switch = next(c for c in scene.controls if c.name == "auto_placement")
        before = app.settings.auto_placement
        player = Player(app)
        player.down(tap_point(switch))
        band = next(c for c in scene.controls if c.kind == "help")
        assert band.label == app.tr("settings.auto_placement_help")
        assert app.settings.auto_placement is before
        player.up(tap_point(switch))
        assert app.settings.auto_placement is not before
    finally:
        app.close()


def name_point(c) -> tuple[int, int]:
    """The middle of a toggle's name as drawn: its title line, left of its switch."""
    knob, top, band = switch_layout(c)
    return ((c.rect.left + knob.left) // 2, top + band // 2)


@pytest.mark.parametrize(("size", "ppm"), [*SIZES, BAND], ids=lambda v: str(v))
def test_only_the_switch_turns_a_toggle(size, ppm, tmp_path: Path) -> None:
    """Synthetic taps on every toggle's name and on its help lines change no setting (issue 38
    item 4: at 800x480 a tap on a name turned "Interactive rules"); where the help is in a band,
    the name's tap shows that toggle's help there. A tap on the switch turns it, and only it."""
    app = make_app(size=size, px_per_mm=ppm)
    player = Player(app)
    try:
        app.set_locale("en")
        player.press("settings")
        scene = app.scenes.top
        assert isinstance(scene, SettingsScene)
        for name in TOGGLES:
            c = next(c for c in scene.controls if c.name == name)
            before = {other: getattr(app.settings, other) for other in TOGGLES}
            player.down(name_point(c))
            player.up(name_point(c))
            assert {other: getattr(app.settings, other) for other in TOGGLES} == before, name
            lines = c.extra.get("help_lines", [])
            if lines:  # the help is there already; its lines are no switch either
                knob, top, band = switch_layout(c)
                line_h = font(c.extra["help_size"]).get_linesize()
                last = top + band + line_h * (len(lines) - 1) + line_h // 2
                spots = [(c.rect.left + 20, top + band + 4)]
                if last >= switch_zone(c).bottom:  # the help's last line, under the switch
                    spots.append((knob.centerx, last))
                for spot in spots:
                    player.down(spot)
                    player.up(spot)
                    assert {o: getattr(app.settings, o) for o in TOGGLES} == before, name
            else:
                touched = state_texts(player, tmp_path / "state.json")
                help_line = f"{app.tr(f'settings.{name}')}: {app.tr(f'settings.{name}_help')}"
                assert help_line in touched, (name, touched)
            assert {other: getattr(app.settings, other) for other in TOGGLES} == before, name
            assert app.scenes.top is scene
            player.down(tap_point(c))
            player.up(tap_point(c))
            after = {other: getattr(app.settings, other) for other in TOGGLES}
            assert after == {**before, name: not before[name]}, name
    finally:
        app.close()
