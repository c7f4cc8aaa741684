"""Kiosk models: idle timer, the long press on the game code, the PIN keypad, the lock."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.config import config_from_dict, hash_pin
from game.kiosk.models import (
    EventAction,
    IdleTimer,
    LongPress,
    PinPad,
    PinResult,
    classify_event,
)
from game.kiosk.pin import PinThrottle
from game.kiosk.startup import prepare_sdl

pytestmark = pytest.mark.app


class TestIdleTimer:
    def test_attract_then_fresh_deal(self) -> None:
        locked = config_from_dict({"kiosk": {"lock": True}})[0]
        timer = IdleTimer.from_config(locked, now=100.0)
        assert (timer.attract_s, timer.new_game_s) == (180.0, 600.0)
        assert not timer.attract_due(279.0)
        assert timer.attract_due(280.0) and not timer.fresh_deal_due(280.0)
        assert timer.fresh_deal_due(700.0)

    def test_without_the_lock_idleness_never_acts_unless_the_operator_says(self) -> None:
        """Issue 38: the idle times belong to the locked kiosk; ``idle_unlocked`` opts in."""
        desktop = IdleTimer.from_config(config_from_dict({})[0], now=100.0)
        assert (desktop.attract_s, desktop.new_game_s) == (0.0, 0.0)
        assert not desktop.attract_due(1e9) and desktop.next_deadline(1e9) is None
        unlocked = config_from_dict({"kiosk": {"idle_unlocked": True}})[0]
        timer = IdleTimer.from_config(unlocked, now=100.0)
        assert (timer.attract_s, timer.new_game_s) == (180.0, 600.0)

    def test_input_restarts_the_count(self) -> None:
        timer = IdleTimer(60, 120, now=0)
        timer.touch(50)
        assert not timer.attract_due(100) and timer.attract_due(110)

    def test_zero_means_never(self) -> None:
        timer = IdleTimer(0, 0, now=0)
        assert not timer.attract_due(1e9) and not timer.fresh_deal_due(1e9)
        assert timer.next_deadline(5) is None

    def test_next_deadline(self) -> None:
        timer = IdleTimer(60, 120, now=0)
        assert timer.next_deadline(10) == 50
        assert timer.next_deadline(70) == 50
        assert timer.next_deadline(130) is None


class TestLongPress:
    def test_fires_once_after_the_hold(self) -> None:
        lp = LongPress(5.0, slop_px=10)
        lp.press((100, 20), 0.0, inside=True)
        assert not lp.update(4.9)
        assert lp.progress(2.5) == pytest.approx(0.5)
        assert lp.update(5.0)
        assert not lp.update(6.0)

    def test_release_or_moving_away_cancels(self) -> None:
        lp = LongPress(5.0, slop_px=10)
        lp.press((100, 20), 0.0, inside=True)
        lp.release()
        assert not lp.update(9.0)
        lp.press((100, 20), 10.0, inside=True)
        lp.move((105, 25))  # a wobbling finger is fine
        lp.move((100, 45))  # a drag is not
        assert not lp.update(20.0)

    def test_press_outside_does_nothing(self) -> None:
        lp = LongPress(5.0, slop_px=10)
        lp.press((100, 20), 0.0, inside=False)
        assert not lp.update(10.0) and lp.progress(3.0) == 0.0


class TestPinPad:
    stored = hash_pin("258036", iterations=100_000)

    def type_pin(self, pad: PinPad, pin: str, now: float) -> PinResult:
        for digit in pin:
            assert pad.press(digit, now) is PinResult.NONE
        return pad.press("ok", now)

    def test_right_pin_is_accepted(self) -> None:
        pad = PinPad(self.stored)
        pad.open(0)
        pad.press("9", 0)
        pad.press("back", 0)
        assert pad.masked == ""
        assert self.type_pin(pad, "258036", 1) is PinResult.ACCEPTED

    def test_wrong_pins_then_a_wait_that_grows(self) -> None:
        pad = PinPad(self.stored)
        pad.open(0)
        assert self.type_pin(pad, "1111", 1) is PinResult.REJECTED
        assert self.type_pin(pad, "2222", 2) is PinResult.REJECTED
        assert self.type_pin(pad, "3333", 3) is PinResult.LOCKED
        assert pad.wait_left(3) == 30.0
        # While locked even the right PIN is refused.
        assert pad.press("2", 10) is PinResult.LOCKED
        assert self.type_pin(pad, "4444", 33) is PinResult.LOCKED
        assert pad.wait_left(33) == 60.0
        assert self.type_pin(pad, "258036", 93) is PinResult.ACCEPTED
        assert pad.wrong == 0

    def test_ok_with_nothing_typed_is_no_try(self) -> None:
        """A stray touch of OK (or a visitor prodding it) counts nothing: the operator's three
        tries are still there (issue 39, item 11)."""
        pad = PinPad(self.stored)
        pad.open(0)
        assert self.type_pin(pad, "1111", 1) is PinResult.REJECTED
        for k in range(10):
            assert pad.press("ok", 2 + k) is PinResult.NONE
        assert pad.wrong == 1 and not pad.is_locked(12)
        pad.press("5", 13)
        pad.press("back", 13)
        assert pad.press("ok", 13) is PinResult.NONE  # typed and erased: nothing either
        assert self.type_pin(pad, "2222", 14) is PinResult.REJECTED
        assert self.type_pin(pad, "258036", 15) is PinResult.ACCEPTED

    def test_the_wait_never_exceeds_two_minutes(self) -> None:
        """A visitor who keeps trying locks the operator out for at most 2 minutes at a time
        (issue 39, item 11: it was 15 minutes)."""
        pad = PinPad(self.stored)
        pad.open(0)
        now, waits = 0.0, []
        for k in range(40):
            result = self.type_pin(pad, f"{k:06d}", now)
            if result is PinResult.LOCKED:
                waits.append(pad.wait_left(now))
                now += pad.wait_left(now)
            now += 1.0
        assert waits[:3] == [30.0, 60.0, 120.0]
        assert max(waits) == 120.0 and waits[-1] == 120.0
        assert self.type_pin(pad, "258036", now) is PinResult.ACCEPTED

    def test_no_hash_accepts_nothing(self) -> None:
        pad = PinPad("")
        pad.open(0)
        assert self.type_pin(pad, "0000", 1) is PinResult.REJECTED

    def test_length_is_capped_and_masked(self) -> None:
        pad = PinPad(self.stored)
        for _ in range(20):
            pad.press("7", 0)
        assert pad.masked == "•" * 12

    def test_cancel_and_timeout(self) -> None:
        pad = PinPad(self.stored)
        pad.open(0)
        pad.press("1", 5)
        assert not pad.expired(34) and pad.expired(35)
        assert pad.press("cancel", 36) is PinResult.CANCELLED
        assert pad.entered == ""


def event(kind: int, **attrs: object) -> pygame.event.Event:
    return pygame.event.Event(kind, attrs)


class TestLock:
    def test_quit_always_saves_and_exits(self) -> None:
        for lock in (True, False):
            assert classify_event(event(pygame.QUIT), lock=lock) is EventAction.SHUTDOWN

    def test_window_close_only_without_lock(self) -> None:
        assert classify_event(event(pygame.WINDOWCLOSE), lock=True) is EventAction.DROP
        assert classify_event(event(pygame.WINDOWCLOSE), lock=False) is EventAction.PASS

    @pytest.mark.parametrize(
        ("key", "mod"),
        [
            (pygame.K_ESCAPE, 0),
            (pygame.K_F4, pygame.KMOD_LALT),
            (pygame.K_q, pygame.KMOD_LCTRL),
            (pygame.K_w, pygame.KMOD_RCTRL),
            (pygame.K_TAB, pygame.KMOD_LALT),
            (pygame.K_d, pygame.KMOD_LGUI),
            (pygame.K_LGUI, 0),
        ],
    )
    def test_locked_keyboard_shortcuts_are_dropped(self, key: int, mod: int) -> None:
        e = event(pygame.KEYDOWN, key=key, mod=mod)
        assert classify_event(e, lock=True) is EventAction.DROP
        assert classify_event(e, lock=False) is EventAction.PASS

    @pytest.mark.parametrize(
        ("key", "mod"), [(pygame.K_z, pygame.KMOD_LCTRL), (pygame.K_h, 0), (pygame.K_BACKSPACE, 0)]
    )
    def test_game_keys_still_work_when_locked(self, key: int, mod: int) -> None:
        assert classify_event(event(pygame.KEYDOWN, key=key, mod=mod), lock=True) is (
            EventAction.PASS
        )

    def test_pointer_events_pass(self) -> None:
        e = event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1)
        assert classify_event(e, lock=True) is EventAction.PASS

    def test_prepare_sdl_hints(self) -> None:
        env: dict[str, str] = {}
        prepare_sdl(config_from_dict({"kiosk": {"lock": True}})[0], env)
        assert env["SDL_QUIT_ON_LAST_WINDOW_CLOSE"] == "0"
        assert env["SDL_GRAB_KEYBOARD"] == "1"
        env = {}
        prepare_sdl(config_from_dict({"kiosk": {"lock": False}})[0], env)
        # Unlocked too: the close button asks first (WINDOWCLOSE), it does not quit at once.
        assert env["SDL_QUIT_ON_LAST_WINDOW_CLOSE"] == "0"
        assert "SDL_GRAB_KEYBOARD" not in env


class TestPinThrottleSurvivesRestarts:
    stored = hash_pin("258036", iterations=100_000)

    def type_pin(self, pad: PinPad, pin: str, now: float) -> PinResult:
        for digit in pin:
            pad.press(digit, now)
        return pad.press("ok", now)

    def test_a_power_cut_gives_no_fresh_tries(self, tmp_path: Path) -> None:
        wall = [1_000_000.0]
        pad = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: wall[0])
        for k in range(3):
            result = self.type_pin(pad, "111111", 1.0 + k)
        assert result is PinResult.LOCKED and pad.wait_left(3.0) == 30.0
        wall[0] += 5.0  # the power is cut; the new process's own clock starts again at 0
        again = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: wall[0])
        assert again.wrong == 3 and again.wait_left(0.0) == pytest.approx(25.0, abs=1.0)
        assert self.type_pin(again, "258036", 1.0) is PinResult.LOCKED  # even the right PIN
        wall[0] += 30.0
        later = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: wall[0])
        assert not later.is_locked(0.0)
        assert self.type_pin(later, "222222", 1.0) is PinResult.LOCKED  # the 4th wrong one
        assert later.wait_left(1.0) == 60.0  # the wait keeps doubling across the restart
        wall[0] += 61.0
        last = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: wall[0])
        assert self.type_pin(last, "258036", 1.0) is PinResult.ACCEPTED
        assert not (tmp_path / "pin-throttle.json").exists()  # a right PIN starts afresh

    def test_an_empty_ok_writes_nothing(self, tmp_path: Path) -> None:
        pad = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: 1_000_000.0)
        for k in range(5):
            assert pad.press("ok", float(k)) is PinResult.NONE
        assert not (tmp_path / "pin-throttle.json").exists()

    def test_a_long_wait_saved_by_an_older_version_is_cut_to_two_minutes(
        self, tmp_path: Path
    ) -> None:
        """An older version waited up to 15 minutes; its file, read now, waits 2 at most."""
        PinThrottle(tmp_path).remember(9, 900.0, 1_000_000.0)
        pad = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: 1_000_001.0)
        assert pad.wrong == 9 and pad.wait_left(0.0) == 120.0
        assert self.type_pin(pad, "258036", 120.0) is PinResult.ACCEPTED

    def test_a_clock_set_back_cannot_stretch_the_wait(self, tmp_path: Path) -> None:
        pad = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: 2_000_000.0)
        for k in range(3):
            self.type_pin(pad, "111111", float(k))
        back = PinPad.persistent(self.stored, tmp_path, 0.0, wall=lambda: 1_000.0)
        assert back.wait_left(0.0) <= back.max_wait_s


def test_weak_or_short_hashes_are_refused() -> None:
    from game.config import config_from_dict
    from game.kiosk.pin import MIN_ITERATIONS, verify_pin

    strong = hash_pin("258036", bytes(range(16)), iterations=MIN_ITERATIONS)
    import hashlib

    digest = hashlib.pbkdf2_hmac("sha256", b"258036", bytes(range(16)), 1).hex()
    weak = f"pbkdf2_sha256$1${bytes(range(16)).hex()}${digest}"
    assert verify_pin("258036", strong) and not verify_pin("258036", weak)
    _, problems = config_from_dict({"kiosk": {"operator_pin_hash": weak}})
    assert len(problems) == 1 and "at least 100000 iterations" in problems[0]
    assert digest not in problems[0] and "<hidden" in problems[0]
    with pytest.raises(ValueError, match="iterations 99999"):
        hash_pin("258036", iterations=99_999)


def test_the_docs_give_the_wait_and_the_time_a_guess_takes() -> None:
    """kiosk/README.md and docs/save-format.md state the longest wait and, from it, how long a
    six-digit PIN takes to guess, and the README says how the operator gets in regardless: the
    figures follow the code (issue 39, item 11)."""
    from game.kiosk.pin import MAX_WAIT_S

    root = Path(__file__).resolve().parents[2]
    readme = " ".join((root / "kiosk" / "README.md").read_text(encoding="utf-8").split())
    save_format = " ".join((root / "docs" / "save-format.md").read_text(encoding="utf-8").split())
    minutes = MAX_WAIT_S / 60
    per_day = 86_400 / MAX_WAIT_S
    days = 10**6 / per_day
    longest = f"up to {minutes:.0f} minutes"
    assert longest in readme and longest in save_format
    figure = (
        f"({per_day:.0f} a day) a six-digit PIN's million combinations take {days:,.0f} days, "
        f"{days / 365.25:.1f} years"
    )
    assert figure in readme
    assert f"{days / 365.25:.1f} years" in save_format
    assert "sudo systemctl stop solitaire-kiosk" in readme
    assert "sudo rm -f /var/lib/solitaire-kiosk/pin-throttle.json" in readme
