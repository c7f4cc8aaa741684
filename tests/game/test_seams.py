"""The seams of docs/architecture.md hold: a resting table tells the loop when it next changes,
the gesture reader reads a press held still, and every registered scene has its typed opener."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from game.app import App
from game.input import GestureReader, Hold
from game.launch import plain_app
from game.saves.prefs import PlayerSettings
from game.scene import Scene, SceneStack
from game.scenes import register_scenes

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]


def make_app() -> App:
    screen = pygame.display.set_mode((800, 480))
    return plain_app(screen, "RU1-C-AAAAABB", settings=PlayerSettings(locale="en"), audio=False)


def test_a_resting_table_sleeps_until_its_toast_goes_and_no_longer() -> None:
    app = make_app()
    app.step()
    table = app.table
    table.model.show_toast("hello")
    assert table.model.toast is not None
    until = table.model.toast.until
    assert app.deadline() == pytest.approx(until)
    # The loop sleeps at most MAX_REST, and never past the step that reaches the toast's end.
    app.update(until - app.clock.time - 0.05, clamp=False)
    assert app.rest_seconds() <= 0.05 + 2 * app.clock.step
    app.update(app.rest_seconds(), clamp=False)
    assert table.model.toast is None or table.model.toast.text != "hello"


def test_the_hint_blink_is_a_deadline_of_its_own() -> None:
    from game.table.hints import HintMark

    app = make_app()
    table = app.table
    table.model.first_line = False
    table.model.toast = None
    move = table.model.game.legal_moves()[0]
    table.model.hints.mark = HintMark(move, app.clock.time + 3.0)
    lit = table.blink()
    due = app.deadline()
    assert due is not None and due - app.clock.time <= 1 / 3 + 1e-9
    app.update(due - app.clock.time + app.clock.step, clamp=False)
    assert table.blink() != lit  # the outline changed exactly at the reported deadline


def test_a_deadline_long_past_never_makes_the_loop_spin() -> None:
    app = make_app()

    class Late(Scene):
        def deadline(self) -> float | None:
            return 0.0  # long past

    app.scenes.push(Late(app))
    assert app.rest_seconds() >= app.clock.step


def test_the_reader_reads_a_press_held_still() -> None:
    reader = GestureReader(px_per_mm=4.0)
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(100, 100), button=1)
    reader.feed(down, 1000.0)
    assert reader.held(3500.0) == Hold((100, 100), 1000.0, 2500.0)
    reader.feed(pygame.event.Event(pygame.MOUSEMOTION, pos=(103, 101)), 3600.0)
    assert reader.held(3700.0) is not None  # within the tap slop: still held
    reader.feed(pygame.event.Event(pygame.MOUSEMOTION, pos=(140, 100)), 3800.0)
    assert reader.held(3900.0) is None  # moved away: no long press
    reader.feed(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(140, 100), button=1), 4000.0)
    reader.feed(down, 5000.0)
    reader.feed(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(100, 100), button=1), 5100.0)
    assert reader.held(6000.0) is None  # let go


def test_the_attract_screen_plays_a_deal_that_is_todays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's own table asks its host for the day's deal like the visitor's table does (a
    demo deal that happened to be today's once stopped the attract screen)."""
    from engine import Game

    app = make_app()
    today = app.arcade.code_of_day(app.games.choice.rules_key())
    monkeypatch.setattr(app.games, "new", lambda code=None, choice=None: Game.from_code(today))
    app.scenes.open("attract")
    demo = app.scenes.top.demo
    assert demo.model.game.code == today and demo.model.deal == "daily"
    assert "Today" in demo.deal_label()
    assert app.step()  # drawn, title and all


def test_the_kiosk_and_the_pin_keypad_tell_the_loop_when_they_act(tmp_path: Path) -> None:
    from tests.kiosk.test_kiosk_app import kiosk_app, kiosk_config

    app, controller = kiosk_app(tmp_path, kiosk_config(idle_attract_minutes=1.0))
    app.table.model.first_line = False
    app.table.model.toast = None
    now = app.clock.time
    assert app.deadline() == pytest.approx(now + 60.0)  # the attract screen's idle timer
    app.scenes.open("pin", controller=controller)
    pad = controller.pin
    pad.locked_until = now + 10.4  # a wait after wrong PINs counts down by the second
    assert app.deadline() == pytest.approx(now + 0.4)
    pad.locked_until = 0.0
    app.update(1.0, clamp=False)
    assert app.deadline() == pytest.approx(pad.last_input + pad.timeout_s)


def test_an_empty_wake_looks_again_soon_then_less_and_less_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a wake that brought no event the loop looks again after 1 ms (SDL often has the
    press only at its second look: a frame's pause showed a press 21 ms late), each pause in a
    row twice as long up to a frame (a socket that stays readable cannot make it spin), and
    the quick look comes back once events come."""
    import game.kiosk.wake

    slept: list[float] = []
    monkeypatch.setattr(game.kiosk.wake.time, "sleep", slept.append)
    waker = game.kiosk.wake.Waker(None, 1 / 60)
    for _ in range(7):
        waker.pause(1.0)
    assert slept[:5] == pytest.approx([0.001, 0.002, 0.004, 0.008, 0.016])
    assert slept[5:] == pytest.approx([1 / 60, 1 / 60])
    waker.heard()
    waker.pause(1.0)
    assert slept[-1] == pytest.approx(0.001)
    waker.pause(0.0005)
    assert slept[-1] == pytest.approx(0.0005)  # never past the deadline


def test_a_demo_host_lends_the_apps_parts_but_keeps_its_reports_and_screens_to_itself() -> None:
    """The attract screen's table plays on the App's screen, settings, language, clock and
    workers; its reports reach none of the App's listeners, the win screen it opens is never
    shown, and a failed save of the visitor's game puts no mark on it."""
    from engine import Move
    from game.scenes.demo import DemoHost

    app = make_app()
    host = DemoHost(app)
    for part in ("screen", "settings", "tr", "clock", "reader", "games", "workers", "arcade"):
        assert getattr(host, part) is getattr(app, part), part
    assert host.hooks is not app.hooks and host.save_failed is False
    heard: list[str] = []

    class Ear:
        def moved(self, game: object, move: object) -> None:
            heard.append(str(move))

    app.hooks.add(Ear())
    demo = app.scenes.factory("table")(host, game=app.games.new("RU1-C-AAAAAAD"), pictures=True)
    assert demo.model.make_move(Move.parse("AH-f"))
    assert heard == []
    before = len(app.scenes)
    host.scenes.open("win", game=demo.model.game, play_time=demo.model.play_time)
    assert len(app.scenes) == before


def opener_signatures() -> dict[str, dict[str, bool]]:
    """Each scene name the typed openers (game.host.Stack.open's overloads, and ``factory``
    for the table) accept, with its keywords: name -> {keyword: required}."""
    import ast

    tree = ast.parse((ROOT / "game/host.py").read_text(encoding="utf-8"))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}

    def keywords(function: ast.FunctionDef) -> dict[str, bool]:
        args = function.args
        defaults = [None] * (len(args.kwonlyargs) - len(args.kw_defaults)) + args.kw_defaults
        return {a.arg: d is None for a, d in zip(args.kwonlyargs, defaults, strict=True)}

    out: dict[str, dict[str, bool]] = {}
    for node in classes["Stack"].body:
        if isinstance(node, ast.FunctionDef) and node.name == "open":
            annotation = ast.unparse(node.args.args[1].annotation or ast.Constant(""))
            out.update((name, keywords(node)) for name in re.findall(r"'([a-z]+)'", annotation))
    call = next(n for n in classes["TableFactory"].body if isinstance(n, ast.FunctionDef))
    out["table"] = {"game": True, **keywords(call)}
    return out


def constructor_keywords(factory: object) -> dict[str, bool]:
    import inspect

    factory = getattr(factory, "load", lambda: factory)()  # imported when first opened
    assert isinstance(factory, type)  # a scene class
    params = list(inspect.signature(factory.__init__).parameters.values())[2:]
    return {p.name: p.default is inspect.Parameter.empty for p in params}


def test_every_scene_opens_through_a_typed_opener_with_its_constructors_arguments() -> None:
    """mypy checks every opening against these overloads: they must name every registered
    scene with exactly the arguments its constructor takes (and which of them it needs)."""
    registry: dict[str, object] = {}

    class Factories(SceneStack):
        def __init__(self) -> None:
            pass

        def register(self, name: str, factory: object) -> None:
            registry[name] = factory

    register_scenes(Factories())
    openers = opener_signatures()
    assert set(openers) == set(registry)
    for name, factory in registry.items():
        assert openers[name] == constructor_keywords(factory), name


def test_no_scene_opens_where_mypy_cannot_check_it() -> None:
    """A scene opened through ``partial(scenes.open, "rules")`` passes mypy with any name and
    any arguments (mypy cannot match a partial against the overloads): every opening in game/
    is a call that mypy checks."""
    import ast

    unchecked = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("partial"):
                target = node.args[0] if node.args else None
                if isinstance(target, ast.Attribute) and target.attr in ("open", "build"):
                    unchecked.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert unchecked == []


def test_each_screenshot_name_shows_its_registered_scene_on_top() -> None:
    """main.py --scene takes the names of game.launch.SHOWN (the one list of them); each opens
    its scene, a registered one (game.scenes.SCENES, the one list of the scenes)."""
    from game.launch import SHOWN, show_scene
    from game.scenes import SCENES

    assert next(iter(SHOWN)) == "table" and len(SHOWN) == 15
    for shown in SHOWN:
        app = make_app()
        show_scene(app, shown)
        scene = shown.partition("-")[0]  # attract-today: the attract screen, showing today's
        assert scene in SCENES
        assert app.scenes.top.name == scene, shown


def test_main_refuses_a_screenshot_name_it_does_not_know_and_lists_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import main

    with pytest.raises(SystemExit) as refused:
        main.main(["--screenshot", str(tmp_path / "s.png"), "--scene", "newgam"])
    assert refused.value.code == 2
    said = capsys.readouterr().err
    assert "argument --scene: invalid choice: 'newgam' (choose from 'table', 'newgame'," in said
    assert "'attract-howto', 'scores', 'stats')" in said
    assert not (tmp_path / "s.png").exists()
