"""The table as a player uses it: synthetic taps and drags through the input layer, a clock
stepped by hand, and the engine's position checked afterwards."""

from __future__ import annotations

import pygame
import pytest

import engine.catalog
import engine.search.hints
from engine import Game, Move
from engine.cards import parse_card
from game.look.cards import TARGET
from game.saves.prefs import PlayerSettings
from game.scenes.keypad import KeypadScene
from game.scenes.newgame import NewGameScene
from game.scenes.win import WinScene
from game.workers import worker_processes
from tests.helpers.tablehelp import Finger, ManualExecutor, make_app, names

pytestmark = pytest.mark.app

# SH1-C4-AAAAAAA: a winning line found by search (the last move is KC-f).
WIN_TEXT = (
    "AS-f 2H-t2 QC-t9 2C-c3 8S-t1 5S-c4 3D-t10 2S-f 2D-t10 4H-t5 2C-t7 3H-t5 9S-t2 TD-t1 "
    "9D-t1 7S-t2 4D-t4 9D-c2 7S-c3 9D-t1 JS-c2 KS-t3 7S-t2 9D-c1 KS-c3 9D-t1 5H-t10 KC-t3 "
    "7C-c1 AC-f 2C-f 3C-f TH-t7 4C-f 6S-t2 AD-f 2D-f 3D-f 4D-f 5D-f 6D-f TC-t9 QD-t4 AH-f "
    "2H-f 3H-f 4H-f 5H-f 6H-f 5C-f 7D-f KH-t5 3S-f 4S-f 5S-f 6S-f 7S-f 8S-f 9S-f TS-f 6C-f "
    "7C-f JS-f JD-t4 8C-f QH-t5 8H-t8 8D-f 9D-f TD-f JD-f QD-f KD-f JH-t5 QS-f KS-f 9H-t5 "
    "JC-t3 7H-f 8H-f 9H-f TH-f JH-f QH-f KH-f 9C-f TC-f JC-f QC-f KC-f"
)


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def settings(**changes: bool) -> PlayerSettings:
    return PlayerSettings(locale="en", **changes)


class TestTap:
    def test_tap_sends_a_top_card_to_its_foundation(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        game = app.table.model.game
        assert game.found == [0, 1, 0, 0]
        assert game.cols[0] == ()
        assert game.score == 10

    def test_tap_on_a_card_that_cannot_go_home_changes_nothing(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        before = app.table.model.game.to_dict()
        finger.tap(finger.card("9S"))
        assert app.table.model.game.to_dict() == before

    def test_one_touch_with_sdl_duplicates_acts_once(self):
        """Mouse and finger events of one touch, and a late non-touch echo, make one tap."""
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        pos = finger.card("AS")
        fx, fy = pos[0] / 1280, pos[1] / 800
        app.step(
            [
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True),
                pygame.event.Event(pygame.FINGERDOWN, x=fx, y=fy, finger_id=0, touch_id=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True),
                pygame.event.Event(pygame.FINGERUP, x=fx, y=fy, finger_id=0, touch_id=1),
            ]
        )
        finger.settle(0.1)
        # The late echo some systems send with touch == False must not be a (double) tap.
        app.step(
            [
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
            ]
        )
        game = app.table.model.game
        assert game.found == [1, 0, 0, 0]
        assert game.moves == 1


class TestDoubleTap:
    def test_double_tap_moves_a_group_to_the_longest_fitting_column(self):
        app = make_app("RU1-R-AAAAAAA")  # 7C fits on column 1 (1 card) and column 3 (7 cards)
        finger = Finger(app)
        game = app.table.model.game
        group = game.cols[5][8:]
        finger.double_tap(finger.card("7C"))
        assert game.cols[2][-len(group) :] == group
        assert names(game.cols[2][6:]) == names((game.cols[2][6],)) + names(group)
        assert len(game.cols[0]) == 1

    def test_double_tap_in_seahaven_uses_a_free_cell(self):
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        finger.double_tap(finger.card("5S"))
        game = app.table.model.game
        assert names([game.cells[2]]) == ["5S"]
        assert names([game.cols[3][-1]]) != ["5S"]

    def test_double_tap_after_a_tap_that_acted_does_not_take_the_card_back(self):
        """The first tap sends AS home at once; the second tap of the pair must neither take it
        back nor act on the card now lying where AS was."""
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        game = app.table.model.game
        column = game.cols[1][:-1]
        finger.double_tap(finger.card("AS"))
        finger.settle()
        assert game.found == [1, 0, 0, 0]
        assert game.cols[1] == column
        assert game.moves == 1

    def test_double_tap_off_makes_the_second_tap_a_plain_tap(self):
        app = make_app("RU1-R-AAAAAAA", settings=settings(double_tap=False))
        finger = Finger(app)
        before = app.table.model.game.to_dict()
        finger.double_tap(finger.card("7C"))
        assert app.table.model.game.to_dict() == before

    def test_double_tap_on_a_stuck_card_explains_why(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        card = game.cols[3][-1]
        assert game.double_tap_move(card) is None
        finger.double_tap(finger.card(names([card])[0]))
        assert app.table.model.toast is not None
        text = app.table.model.toast.text
        assert text.startswith(app.tr.refusal(game.why_stuck(card)))
        assert app.tr("table.needed_down", needed=app.tr.card("9D")) in text  # 8♦ needs 9♦


class TestDrag:
    def test_drag_to_a_legal_column_moves_the_card(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.drag(finger.card("9S"), finger.column(6))
        game = app.table.model.game
        assert names(game.cols[6][-4:]) == ["TS", "9S", "3C", "9H"]  # with what lies on it
        assert names(game.cols[4][-1:]) == ["8C"]

    def test_drag_to_an_illegal_column_flies_back_and_tells_the_rule(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        before = game.to_dict()
        finger.drag(finger.card("9S"), finger.column(2))
        assert game.to_dict() == before
        refusal = game.check(Move(parse_card("9S"), 2))
        assert refusal is not None and refusal.reason == "wrong_suit"
        assert app.table.model.toast is not None
        assert app.table.model.toast.text.startswith(app.tr.refusal(refusal))
        # It flies back: a tween is running and ends on the card's place.
        assert app.table.model.tweens
        finger.settle()
        assert not app.table.model.tweens

    def test_drop_on_empty_felt_flies_back_silently(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        before = app.table.model.game.to_dict()
        finger.drag(finger.card("9S"), (1275, 795))
        assert app.table.model.game.to_dict() == before
        assert app.table.model.toast is None

    def test_drag_a_face_down_card_is_refused(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        hidden = game.cols[6][0]
        rect = app.table.model.card_rect(hidden)
        finger.drag((rect.centerx, rect.top + 3), finger.column(0))
        assert app.table.model.toast is not None
        assert "face down" in app.table.model.toast.text

    def test_seahaven_moves_a_run_and_refuses_a_mixed_group(self):
        app = make_app("SH1-C4-AAAAAAA")
        table = app.table
        for move in WIN_TEXT.split()[:11]:
            table.model.make_move(Move.parse(move))
        finger = Finger(app)
        finger.settle()
        finger.drag(finger.card("3H"), finger.column(4))
        game = table.model.game
        assert names(game.cols[4][-3:]) == ["4H", "3H", "2H"]
        finger.settle()
        assert names(game.cols[0]) == ["8C", "JD", "9S", "8S"]
        finger.drag(finger.card("JD"), finger.column(9))
        assert names(game.cols[0]) == ["8C", "JD", "9S", "8S"]
        assert table.model.toast is not None and "JD" not in table.model.toast.text
        assert table.model.toast.text == app.tr.refusal(game.why_stuck(parse_card("JD")))

    def test_take_back_from_a_foundation_to_a_column(self):
        app = make_app("RU1-C-AAAAAAN")
        finger = Finger(app)
        game = app.table.model.game
        finger.tap(finger.card("AC"))
        assert game.found == [0, 0, 0, 1]
        finger.settle()
        finger.drag(app.table.model.layout.foundations[3].center, finger.column(0))
        assert game.found == [0, 0, 0, 0]
        assert names(game.cols[0][-2:]) == ["2C", "AC"]
        assert game.score == 10  # Russian: a take-back costs nothing

    def test_take_back_in_seahaven_to_a_free_cell(self):
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        game = app.table.model.game
        finger.tap(finger.card("AS"))
        finger.settle()
        cell = app.table.model.layout.cells[2]
        finger.drag(app.table.model.layout.foundations[0].center, cell.center)
        assert game.found == [0, 0, 0, 0]
        assert names([game.cells[2]]) == ["AS"]
        assert game.score == 0

    def test_a_tap_on_a_foundation_card_does_not_take_it_back(self):
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        finger.tap(finger.card("AS"))
        finger.settle()
        finger.double_tap(app.table.model.layout.foundations[0].center)
        assert app.table.model.game.found == [1, 0, 0, 0]


class TestSettings:
    def _drag_and_hold(self, app, finger):
        start = finger.card("9S")
        finger.down(start)
        for k in range(1, 5):
            finger.move((start[0] - 40 * k, start[1] + 40 * k))  # away from column 7
        return app.table.model.places.dest_rect(6)

    @pytest.mark.parametrize("on", [True, False])
    def test_placement_help_lights_legal_places_while_dragging(self, on):
        app = make_app("RU1-C-AAAAAAD", settings=settings(placement_help=on))
        finger = Finger(app)
        rect = self._drag_and_hold(app, finger)
        assert app.table.model.drag is not None
        pixel = app.screen.get_at((rect.left - 2, rect.bottom - rect.height // 4))[:3]
        assert (pixel == TARGET) is on

    @pytest.mark.parametrize("on", [True, False])
    def test_interactive_rules_popup(self, on):
        app = make_app("RU1-C-AAAAAAD", settings=settings(interactive_rules=on))
        finger = Finger(app)
        finger.drag(finger.card("9S"), finger.column(2))
        assert (app.table.model.toast is not None) is on

    @pytest.mark.parametrize("on", [True, False])
    def test_auto_placement_sends_a_released_card_where_it_fits(self, on):
        app = make_app("RU1-C-AAAAAAD", settings=settings(auto_placement=on))
        finger = Finger(app)
        finger.drag(finger.card("9S"), (1275, 795))
        top = names(app.table.model.game.cols[6][-3:])
        assert (top == ["9S", "3C", "9H"]) is on

    def test_auto_placement_leaves_a_card_put_back_on_its_own_column(self):
        app = make_app("RU1-C-AAAAAAD", settings=settings(auto_placement=True))
        finger = Finger(app)
        before = app.table.model.game.to_dict()
        start = finger.card("9S")
        finger.drag(start, (start[0] + 4, start[1] + 30))
        assert app.table.model.game.to_dict() == before

    def test_settings_screen_toggles_and_keeps_them_across_restarts(self, tmp_path):
        app = make_app(state_dir=tmp_path)
        finger = Finger(app)
        assert app.settings.auto_placement is False
        finger.tap(finger.button("settings"))
        finger.tap(finger.control(app.tr("settings.auto_placement")))
        finger.settle()
        finger.tap(finger.control(app.tr("settings.double_tap")))
        assert app.settings.auto_placement is True
        assert app.settings.double_tap is False
        pygame.display.quit()
        again = make_app(state_dir=tmp_path)
        assert again.settings.auto_placement is True
        assert again.settings.double_tap is False

    def test_language_switch_changes_the_buttons(self):
        app = make_app()
        finger = Finger(app)
        finger.tap(finger.button("settings"))
        finger.tap(finger.control(app.tr("language.fi")))
        assert app.tr.locale == "fi"
        assert app.settings.locale == "fi"

    def test_russian_cards_carry_russian_indices(self):
        app = make_app()
        app.set_locale("ru")
        app.step()
        art = app.table.art
        assert art.ranks[0] == app.tr.rank("A") != "A"  # туз
        assert art.ranks[11] == app.tr.rank("Q") != "Q"  # дама


class TestUndo:
    def test_undo_button_restores_the_position_and_keeps_the_counter(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        start = game.to_dict()
        finger.tap(finger.card("AH"))
        finger.settle()
        finger.tap(finger.button("undo"))
        after = game.to_dict()
        assert after["columns"] == start["columns"]
        assert after["score"] == 0
        assert game.moves == 1

    @pytest.mark.parametrize(
        ("key", "mod"), [(pygame.K_z, pygame.KMOD_LCTRL), (pygame.K_BACKSPACE, 0)]
    )
    def test_undo_keys(self, key, mod):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="")])
        assert app.table.model.game.found == [0, 0, 0, 0]

    def test_undo_turns_a_revealed_card_face_down_again(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        finger.tap(finger.card("AH"))
        finger.settle()
        finger.drag(finger.card("KH"), finger.column(0))
        assert names(game.cols[0]) == ["KH", "JH", "4C", "AS", "8D"]
        assert game.down[3] == 2 and game.score == 15
        finger.settle()
        finger.tap(finger.button("undo"))
        assert game.down[3] == 3 and game.score == 10
        assert game.cols[0] == ()


class TestNewGame:
    def _open_keypad(self, app, finger):
        finger.tap(finger.button("new"))
        assert isinstance(app.scenes.top, NewGameScene)
        finger.tap(finger.control(app.tr("newgame.code")))
        assert isinstance(app.scenes.top, KeypadScene)
        finger.tap(finger.control(app.tr("keypad.clear")))

    def _type(self, finger, text):
        for char in text:
            finger.tap(finger.control(char))
            finger.settle(0.4)  # no double taps between keys

    def test_new_game_by_code_on_the_keypad(self):
        app = make_app()
        finger = Finger(app)
        self._open_keypad(app, finger)
        self._type(finger, "SH1-C2-AAAAAJ2")
        finger.tap(finger.control(app.tr("keypad.play")))
        assert len(app.scenes) == 1
        game = app.table.model.game
        assert game.code == "SH1-C2-AAAAAJ2"
        assert len(app.table.model.layout.cells) == 2
        assert len(app.table.model.layout.columns) == 10
        assert names(game.cols[0]) == ["KD", "AH", "KH", "2H", "6C"]

    def test_a_bad_code_gets_a_clear_message(self):
        app = make_app()
        finger = Finger(app)
        self._open_keypad(app, finger)
        self._type(finger, "RU1-X-AAAAAAA")
        finger.tap(finger.control(app.tr("keypad.play")))
        keypad = app.scenes.top
        assert isinstance(keypad, KeypadScene)
        assert "X" in keypad.error and "rule set" in keypad.error
        assert app.table.model.game.code == "RU1-C-AAAAABB"

    def test_new_game_dialog_deals_the_chosen_game(self):
        app = make_app()
        finger = Finger(app)
        finger.tap(finger.button("new"))
        finger.tap(finger.control(app.tr("names.seahaven")))
        finger.settle()
        finger.tap(finger.control(app.tr("newgame.cells_hard")))
        finger.settle()
        finger.tap(finger.control(app.tr("newgame.deal")))
        game = app.table.model.game
        assert game.code.startswith("SH1-C1-")
        assert len(game.cells) == 1 and len(app.table.model.layout.cells) == 1
        assert len(app.scenes) == 1


class TestWin:
    def test_replaying_a_winning_line_shows_the_win_screen(self):
        app = make_app("SH1-C4-AAAAAAA")
        finger = Finger(app)
        table = app.table
        for move in WIN_TEXT.split()[:-1]:
            table.model.make_move(Move.parse(move))
        finger.settle()
        assert not isinstance(app.scenes.top, WinScene)
        finger.tap(finger.card("KC"))
        assert table.model.game.is_won
        finger.settle(0.5)
        win = app.scenes.top
        assert isinstance(win, WinScene)
        texts = [c.label for c in win.controls]
        assert app.tr("win.score", score=table.model.game.score) in texts
        assert app.tr("win.moves", count=table.model.game.moves) in texts
        finger.settle(1.0)  # the celebration runs
        finger.tap(finger.control(app.tr("win.new_deal")))
        assert len(app.scenes) == 1
        assert not app.table.model.game.is_won
        assert app.table.model.game.moves == 0


class TestAnimationAndDrawing:
    def test_a_move_glides_and_new_input_finishes_it(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        table = app.table
        assert table.model.tweens
        tween = table.model.tweens[0]
        assert 0.15 <= tween.duration <= 0.25
        mid = tween.position(tween.t0 + tween.duration / 2)
        assert mid != tween.start and mid != tween.end
        finger.down((5, 790))
        assert not table.model.tweens

    def test_a_revealed_card_turns_over(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.settle()
        finger.drag(finger.card("KH"), finger.column(0))
        flips = [t for t in app.table.model.tweens if t.flip == 1]
        assert names([t.card for t in flips]) == names([app.table.model.game.cols[3][2]])

    def test_an_idle_table_draws_nothing(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.settle(0.5)
        frames = [app.step() for _ in range(30)]
        # Only the info bar's clock may change (once a second), nothing else.
        changed = [r for rects in frames for r in rects]
        assert all(r == app.table.model.layout.info_bar for r in changed)
        assert len(changed) <= 1

    def test_resize_lays_the_table_out_again(self):
        app = make_app("SH1-C4-AAAAAAA", size=(1280, 800))
        screen = pygame.display.set_mode((720, 1280))
        app.resize(screen)
        app.step()
        lay = app.table.model.layout
        assert lay.portrait and lay.width == 720
        for card in range(52):
            assert screen.get_rect().contains(app.table.model.card_rect(card))


class Recorder:
    def __init__(self):
        self.events = []

    def started(self, game):
        self.events.append(("started", game.code))

    def moved(self, game, move):
        self.events.append(("moved", str(move)))

    def undone(self, game):
        self.events.append(("undone", game.moves))

    def ended(self, game, result):
        self.events.append(("ended", result))

    def shutdown(self, game):
        self.events.append(("shutdown", game.code))


class TestHooks:
    def test_moves_undo_new_deal_and_quit_reach_the_hooks(self):
        app = make_app("RU1-C-AAAAAAD")
        recorder = Recorder()
        app.hooks.add(recorder)
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.settle()
        finger.tap(finger.button("undo"))
        app.table.start_game(Game.from_code("SH1-C4-AAAAAJ2"))
        app.step([pygame.event.Event(pygame.QUIT)])
        assert recorder.events == [
            ("moved", "AH-f"),
            ("undone", 1),
            ("ended", "abandoned"),
            ("started", "SH1-C4-AAAAAJ2"),
            ("shutdown", "SH1-C4-AAAAAJ2"),
        ]
        assert not app.running

    def test_an_event_filter_can_drop_raw_events(self):
        app = make_app("RU1-C-AAAAAAD")
        seen = []
        app.event_filters.append(lambda event: seen.append(event.type) or False)
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        assert seen == [pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP]
        assert app.table.model.game.moves == 0

    def test_a_failing_hook_does_not_stop_the_game_and_is_logged(self, caplog):
        app = make_app("RU1-C-AAAAAAD")

        class Broken:
            def moved(self, game, move):
                raise OSError("disk full")

        app.hooks.add(Broken())
        finger = Finger(app)
        with caplog.at_level("WARNING", logger="solitaire"):
            finger.tap(finger.card("AH"))
        assert app.table.model.game.found == [0, 1, 0, 0]
        assert "Broken.moved failed: OSError('disk full')" in caplog.text


def press_h(app):
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h")])


def solver_with(monkeypatch, hint_data):
    """engine.search.hints' ``hint_data`` (the worker's entry point) replaced by the given one."""
    monkeypatch.setattr(engine.search.hints, "hint_data", hint_data)


def asking_app(monkeypatch, hint_data=lambda data, limit: ("9S-t7", "won", None)):
    """A table whose hint worker is a ManualExecutor and whose solver is ``hint_data``."""
    app = make_app("RU1-C-AAAAAAD")
    solver_with(monkeypatch, hint_data)
    pool = ManualExecutor()
    app.workers.use("hint", pool)
    return app, pool


def exited(processes, seconds):
    """Whether every process has ended within ``seconds``: its sentinel turns readable when
    it exits (is_alive() can race with the executor's own thread reaping the same child)."""
    import time
    from multiprocessing.connection import wait

    deadline = time.monotonic() + seconds
    left = [p.sentinel for p in processes]
    while left:
        left = [s for s in left if s not in wait(left, max(0.0, deadline - time.monotonic()))]
        if left and time.monotonic() >= deadline:
            return False
    return True


class TestHint:
    """The hint is worked out in a worker: the table says "thinking" at once, keeps running,
    and shows the answer when it comes if the position is still the one asked about."""

    def test_a_worker_that_cannot_start_says_so_and_the_next_hint_tries_again(self, monkeypatch):
        """No worker process (no /dev/shm, no memory): the hint says it is unavailable, the
        game goes on, and the next press tries to start a worker again."""
        import game.workers as workers_module

        starts = []

        def cannot_start(**options):
            starts.append(options)
            raise OSError("no /dev/shm")

        app = make_app("RU1-C-AAAAAAD")
        monkeypatch.setattr(workers_module, "ProcessPoolExecutor", cannot_start)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        app.step()
        assert app.table.model.toast is not None
        assert app.table.model.toast.text == app.tr("table.hint_unavailable")
        assert app.workers.pool("hint") is None and app.table.model.hints.job is None
        finger.tap(finger.card("AH"))  # the game goes on
        assert app.table.model.game.found == [0, 1, 0, 0]
        press_h(app)
        assert len(starts) == 2

    def test_the_h_key_says_thinking_then_shows_the_solvers_move(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        press_h(app)
        table = app.table
        assert table.model.toast is not None and table.model.toast.text == app.tr(
            "table.hint_thinking"
        )
        assert table.model.hints.mark is None
        for _ in range(300):  # 5 s of frames: longer than a toast lives, still thinking
            app.step()
        assert table.model.toast is not None and table.model.toast.text == app.tr(
            "table.hint_thinking"
        )
        assert table.model.hints.mark is None and len(pool.jobs) == 1
        pool.finish()
        assert table.model.hints.mark is None  # shown by the frame loop, not by the worker's thread
        app.step()
        assert table.model.hints.mark is not None and str(table.model.hints.mark.move) == "9S-t7"
        assert (
            table.model.toast is not None
            and "9♠" in table.model.toast.text
            and "7" in table.model.toast.text
        )
        assert table.model.game.moves == 0  # a hint only shows

    def test_the_table_keeps_running_while_the_solver_thinks(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        table = app.table
        start, drawn = app.clock.time, app.frames_drawn
        # A drag follows the finger and a refused drop glides back, all while thinking.
        card = parse_card("9S")
        home = table.model.card_rect(card).topleft
        grab = finger.card("9S")
        finger.down(grab)
        for k in range(1, 7):
            finger.move((grab[0] - 20 * k, grab[1] + 30 * k))
        assert table.model.drag is not None and table.model.drag.pos == (
            grab[0] - 120,
            grab[1] + 180,
        )
        finger.up((grab[0] - 120, grab[1] + 180))
        assert table.model.tweens and table.model.hints.job is not None
        finger.settle(1.0)
        assert not table.model.tweens and table.model.card_rect(card).topleft == home
        assert app.clock.time - start > 1.0 and app.frames_drawn > drawn + 10
        assert table.model.hints.mark is None and table.model.hints.job is not None
        pool.finish()
        app.step()
        assert str(table.model.hints.mark.move) == "9S-t7"

    def test_a_move_meanwhile_discards_the_stale_answer(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        future = pool.jobs[0][0]
        assert future.set_running_or_notify_cancel()  # the worker starts on it
        finger.tap(finger.card("AH"))  # the ace goes home before the answer comes
        assert app.table.model.game.found == [0, 1, 0, 0]
        assert app.table.model.toast is None or app.table.model.toast.text != app.tr(
            "table.hint_thinking"
        )
        future.set_result(("9S-t7", "won", None))
        finger.settle()
        assert app.table.model.hints.mark is None
        texts = [
            app.tr("table.hint_move", move=app.table.model.hints.describe(Move.parse("9S-t7")))
        ]
        assert app.table.model.toast is None or app.table.model.toast.text not in texts

    def test_undo_or_a_new_game_meanwhile_discards_it_too(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.settle()
        press_h(app)
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")])
        pool.finish()
        finger.settle()
        assert app.table.model.hints.mark is None
        press_h(app)
        app.table.start_game(app.games.new("RU1-C-AAAAAAD"))  # the same deal, a new game
        pool.finish()
        finger.settle()
        assert app.table.model.hints.mark is None

    def test_a_second_press_while_thinking_starts_no_second_search(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        finger.tap(finger.button("hint"))
        press_h(app)
        assert len(pool.jobs) == 1
        assert app.table.model.toast.text == app.tr("table.hint_thinking")
        pool.finish()
        app.step()
        assert str(app.table.model.hints.mark.move) == "9S-t7"
        press_h(app)  # answered: a new press asks again
        assert len(pool.jobs) == 2

    def test_an_answer_waits_for_the_player_behind_a_dialog(self, monkeypatch):
        app, pool = asking_app(monkeypatch)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        assert app.table.busy()  # the loop keeps polling while the worker thinks
        finger.tap(finger.button("settings"))
        pool.finish()
        finger.settle()
        assert app.table.model.hints.mark is None
        assert not app.table.busy()  # an idle kiosk may still go to its attract screen
        app.scenes.pop_to_bottom()
        app.step()
        assert str(app.table.model.hints.mark.move) == "9S-t7"

    def test_a_broken_worker_says_hints_are_unavailable(self, monkeypatch):
        from concurrent.futures.process import BrokenProcessPool

        class DeadPool(ManualExecutor):
            def submit(self, fn, /, *args, **kwargs):
                raise BrokenProcessPool("a child process terminated abruptly")

        app = make_app("RU1-C-AAAAAAD")
        solver_with(monkeypatch, lambda data, limit: ("9S-t7", "won", None))
        app.workers.use("hint", DeadPool())
        press_h(app)
        assert app.table.model.toast.text == app.tr("table.hint_unavailable")
        assert app.table.model.hints.job is None

    def test_a_worker_dying_mid_search_says_unavailable_and_the_next_hint_works(self, monkeypatch):
        from concurrent.futures.process import BrokenProcessPool

        def dies(data, limit):
            raise BrokenProcessPool("a child process terminated abruptly")

        app, pool = asking_app(monkeypatch, dies)
        press_h(app)
        pool.finish()
        app.step()
        assert app.table.model.toast.text == app.tr("table.hint_unavailable")
        assert app.table.model.hints.mark is None
        solver_with(monkeypatch, lambda data, limit: ("9S-t7", "won", None))
        press_h(app)
        pool.finish()
        app.step()
        assert str(app.table.model.hints.mark.move) == "9S-t7"

    def test_a_worker_that_never_answers_is_given_up(self, monkeypatch):
        app, _never_finished = asking_app(monkeypatch)
        press_h(app)
        for seconds in (10.0, 9.0):
            app.update(seconds, clamp=False)
        assert app.table.model.hints.job is not None  # patient: a Pi may still be spawning it
        app.update(2.0, clamp=False)
        app.draw()
        assert app.table.model.hints.job is None and not app.table.busy()
        assert app.table.model.toast.text == app.tr("table.hint_unavailable")

    def test_the_real_worker_process_answers_and_quits_with_the_game(self):
        import time

        app = make_app("SH1-C4-AAAAAAA")
        press_h(app)
        table = app.table
        assert table.model.toast.text == app.tr("table.hint_thinking")
        pool = app.workers.pool("hint")
        assert pool is not None
        deadline = time.monotonic() + 30
        while table.model.hints.job is not None and time.monotonic() < deadline:
            app.step()
            time.sleep(0.01)
        assert table.model.hints.mark is not None
        assert table.model.game.check(table.model.hints.mark.move) is None  # a legal move
        processes = worker_processes(pool)
        assert processes and all(p.is_alive() for p in processes)
        app.step([pygame.event.Event(pygame.QUIT)])
        assert not app.running and app.workers.pool("hint") is None
        assert exited(processes, 0)  # gone when quit returns

    def test_a_stuck_worker_is_stopped_when_given_up_and_when_quitting(self):
        """A worker busy with something that never ends is terminated shortly after the table
        gives up on it (in the background: the table keeps running), and at once on quit."""
        import multiprocessing
        import time
        from concurrent.futures import ProcessPoolExecutor

        from game.workers import WORKER_GRACE

        def stuck_worker(app):
            pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            app.workers.use("hint", pool, own=True)
            pool.submit(time.sleep, 600)
            deadline = time.monotonic() + 30
            while not worker_processes(pool) and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.5)  # the worker has taken the call
            return worker_processes(pool)

        app = make_app("RU1-C-AAAAAAD")
        processes = stuck_worker(app)
        start = time.monotonic()
        app.workers.stop("hint")
        assert time.monotonic() - start < WORKER_GRACE  # the frame loop does not wait
        assert not exited(processes, 0)
        assert exited(processes, WORKER_GRACE + 10)

        processes = stuck_worker(app)
        app.step([pygame.event.Event(pygame.QUIT)])
        assert not app.running
        assert exited(processes, 0)


class TestSolverSeams:
    """The table uses engine.search.hints for hints and engine.catalog for deals (faked here with
    their documented shapes)."""

    def test_hint_data_from_the_worker(self, monkeypatch):
        asked = []

        def hint_data(data, time_limit):
            asked.append((data["code"], time_limit))
            return "9S-t7", "won", None

        app = self._ask(monkeypatch, hint_data)
        assert asked == [("RU1-C-AAAAAAD", asked[0][1])] and asked[0][1] <= 2
        assert str(app.table.model.hints.mark.move) == "9S-t7"

    def _ask(self, monkeypatch, hint_data):
        app, pool = asking_app(monkeypatch, hint_data)
        finger = Finger(app)
        finger.tap(finger.button("hint"))
        pool.finish()
        app.step()
        return app

    def test_stuck_position_says_undo_or_new_game(self, monkeypatch):
        app = self._ask(monkeypatch, lambda data, limit: (None, "unknown", "no_useful_moves"))
        assert app.table.model.toast.text == app.tr("reason.no_useful_moves")
        assert app.table.model.hints.mark is None

    def test_a_lost_position_is_not_called_one_without_useful_moves(self, monkeypatch):
        """Bug: on a position proved unwinnable the hint said "no useful moves left" while an
        ace could go home; it now says the position can no longer be won (after a move: at
        the deal itself the hint offers a new deal, tests/hints/test_hint_lost_deal.py)."""
        app, pool = asking_app(monkeypatch, lambda data, limit: (None, "lost", "no_useful_moves"))
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.tap(finger.button("hint"))
        pool.finish()
        app.step()
        # the first such hint also names the winnable indicator (issue 38 item 2)
        tip = app.tr("table.hint_lost_tip", setting=app.tr("settings.winnable_indicator"))
        assert app.table.model.toast.text == tip
        assert app.table.model.hints.mark is None

    def test_a_solver_bug_is_no_hint_never_a_crash(self, monkeypatch, caplog):
        """A solver exception in the worker: the hint is unavailable, the log says why."""

        def broken(data, limit):
            raise RecursionError("maximum recursion depth exceeded")

        with caplog.at_level("WARNING", logger="solitaire"):
            app = self._ask(monkeypatch, broken)
        assert app.table.model.toast.text == app.tr("table.hint_unavailable")
        assert "maximum recursion depth" in caplog.text

    def test_new_game_deals_from_the_catalog_at_the_chosen_level(self, monkeypatch):
        app = make_app()
        picks = []

        def pick(rules_key, level, rng):
            picks.append((rules_key, level))
            return f"{rules_key}-AAAAABB"

        monkeypatch.setattr(engine.catalog, "pick", pick)
        finger = Finger(app)
        finger.tap(finger.button("new"))
        finger.tap(finger.control(app.tr("names.hard")))
        finger.settle()
        finger.tap(finger.control(app.tr("newgame.deal")))
        assert picks == [("RU1-C", "hard")]
        assert app.table.model.game.code == "RU1-C-AAAAABB"

    def test_a_broken_catalog_still_deals(self, monkeypatch):
        app = make_app()

        def pick(rules_key, level, rng):
            raise OSError("damaged")

        monkeypatch.setattr(engine.catalog, "pick", pick)
        app.games.choice.level = "easy"
        game = app.games.new()
        assert game.code.startswith("RU1-C-")


class FakeIndicator:
    def __init__(self):
        self.updates = []
        self.status = "working"
        self.closed = False

    def update(self, game):
        self.updates.append(game.moves)
        self.status = "working"

    def poll(self):
        return self.status

    def close(self):
        self.closed = True


class TestWinnableIndicator:
    def test_the_bar_shows_the_verdict_and_follows_the_setting(self, monkeypatch):
        fake = FakeIndicator()
        from game.workers import Workers

        # Patched on the class: the table starts its indicator while the app is built.
        monkeypatch.setattr(Workers, "indicator", lambda self: fake)
        app = make_app("RU1-C-AAAAAAD", settings=settings(winnable_indicator=True))
        table = app.table
        table.close()  # the real indicator the table started with the setting on
        table.model.hints.sync_indicator()
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        assert fake.updates[-1] == 1  # told about the move
        fake.status = "won"
        rects = [app.step() for _ in range(3)]
        assert table.bar_text()[4] == app.tr("table.winnable_won")
        assert any(table.model.layout.info_bar in r for r in rects)  # the bar was redrawn
        # Turning the setting off on the settings screen stops the worker.
        finger.tap(finger.button("settings"))
        finger.tap(finger.control(app.tr("settings.winnable_indicator")))
        finger.tap(finger.control(app.tr("dialog.close")))
        assert fake.closed and table.model.hints.indicator is None
        assert table.bar_text()[4] == ""


class TestWindow:
    def test_a_window_resize_event_lays_the_table_out_again(self):
        app = make_app("RU1-C-AAAAABB", size=(1280, 800))
        pygame.display.set_mode((800, 480))
        app.step([pygame.event.Event(pygame.VIDEORESIZE, size=(800, 480), w=800, h=480)])
        assert app.screen.get_size() == (800, 480)
        assert app.table.model.layout.width == 800
        finger = Finger(app)
        finger.tap(finger.button("undo"))  # the buttons moved with the layout
        assert app.table.model.toast is not None
        assert app.table.model.toast.text == app.tr("table.nothing_to_undo")

    def test_a_window_shown_again_is_drawn_whole(self):
        """Under X11 the game presents only what changed (shared memory): a window the system
        shows again (mapped, uncovered, resized) must get the whole screen, or it stays black
        but for the next changes."""
        app = make_app("RU1-C-AAAAABB", size=(800, 480))
        app.step()
        assert app.step() == []  # at rest: nothing to present
        exposed = pygame.event.Event(pygame.WINDOWEXPOSED, window=None)
        assert app.step([exposed]) == [app.screen.get_rect()]
        assert app.step() == []
        resized = pygame.event.Event(pygame.WINDOWSIZECHANGED, x=800, y=480, window=None)
        assert app.step([resized]) == [app.screen.get_rect()]
