"""The autosave: exact resume, damaged saves, the crash-loop guard, and SIGKILL at random
moments of scripted play (every restart resumes the last finished move)."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from engine import RULES_BY_KEY, Game
from game.config import Config
from game.saves.persist import CRASH_LIMIT, Autosave, CrashGuard, load_stats, save_stats
from game.saves.session import Session
from game.saves.stats import Stats, rule_set_keys
from game.saves.storage import autosave_store

pytestmark = pytest.mark.unit

CODES = ("RU1-C-AAAAABB", "SH1-C2-AAAAAJ2")


def scripted_action(game: Game, step: int, seed: int) -> str:
    """The scripted player's action number `step`: a function of the position, the step and
    the seed only, so any run can be replayed. Mostly legal moves, sometimes an undo."""
    rng = random.Random(seed * 1_000_003 + step)
    if game.can_undo() and rng.random() < 0.15:
        return "undo"
    moves = sorted(str(m) for m in game.legal_moves())
    if not moves:
        return "undo"
    return rng.choice(moves)


def apply(game: Game, action: str) -> None:
    if action == "undo":
        if game.can_undo():  # nothing to take back: the action does nothing, as undo did
            game.pop()
    else:
        game.play(action)


def clock(step: int) -> float:
    return step * 0.75


def replay(code: str, seed: int, steps: int) -> list[dict[str, Any]]:
    """game.to_dict() after 0, 1, ..., steps scripted actions."""
    game = Game.from_code(code)
    out = [game.to_dict()]
    for step in range(1, steps + 1):
        apply(game, scripted_action(game, step, seed))
        out.append(game.to_dict())
    return out


def test_rule_set_keys_match_the_engine() -> None:
    assert set(rule_set_keys()) == set(RULES_BY_KEY)


@pytest.mark.parametrize("code", CODES)
def test_resume_is_exact(tmp_path: Path, code: str) -> None:
    game = Game.from_code(code)
    autosave = Autosave(autosave_store(tmp_path))
    for step in range(1, 61):
        apply(game, scripted_action(game, step, 7))
        assert autosave.save(game, clock(step), {"stats_recorded": False})
    resumed = Autosave(autosave_store(tmp_path)).load()
    assert resumed is not None
    assert resumed.game.to_dict() == game.to_dict()  # cards, score, counter, undo history
    assert (resumed.game.score, resumed.game.moves) == (game.score, game.moves)
    assert resumed.elapsed == clock(60)
    assert resumed.seq == 60
    assert resumed.meta == {"stats_recorded": False}
    # The undo history works the same after the restart.
    while game.can_undo():
        assert resumed.game.pop() == game.pop()
        assert resumed.game.to_dict() == game.to_dict()
    with pytest.raises(IndexError):
        resumed.game.pop()


def test_undo_depth_from_config_applies_to_a_resumed_game(tmp_path: Path) -> None:
    game = Game.from_code(CODES[0])
    for step in range(1, 40):
        apply(game, scripted_action(game, step, 3))
    Autosave(autosave_store(tmp_path)).save(game, 10.0)
    resumed = Autosave(autosave_store(tmp_path), undo_depth=5).load()
    assert resumed is not None
    assert resumed.game.move_stack == game.move_stack[-5:]


def test_seq_continues_after_resume(tmp_path: Path) -> None:
    autosave = Autosave(autosave_store(tmp_path))
    game = Game.from_code(CODES[0])
    autosave.save(game, 1.0)
    autosave.save(game, 2.0)
    again = Autosave(autosave_store(tmp_path))
    assert again.load() is not None
    again.save(game, 3.0)
    assert json.loads(again.store.path.read_text())["data"]["seq"] == 3


def test_bad_clock_is_saved_as_zero(tmp_path: Path) -> None:
    autosave = Autosave(autosave_store(tmp_path))
    assert autosave.save(Game.from_code(CODES[0]), float("nan"))
    resumed = autosave.load()
    assert resumed is not None and resumed.elapsed == 0.0


def _saved(tmp_path: Path) -> dict[str, Any]:
    autosave = Autosave(autosave_store(tmp_path))
    game = Game.from_code(CODES[0])
    game.play(game.legal_moves()[0])
    autosave.save(game, 5.0)
    data: dict[str, Any] = json.loads(autosave.store.path.read_text())
    return data


DAMAGE = {
    "two_aces_of_spades": lambda d: d["data"]["game"]["columns"][0].__setitem__(0, "AS"),
    "unknown_code": lambda d: d["data"]["game"].__setitem__("code", "XX1-C-AAAAAAA"),
    "no_game": lambda d: d["data"].pop("game"),
    "negative_clock": lambda d: d["data"].__setitem__("elapsed", -4),
    "clock_text": lambda d: d["data"].__setitem__("elapsed", "5 s"),
    "seq_bool": lambda d: d["data"].__setitem__("seq", True),
    "meta_list": lambda d: d["data"].__setitem__("meta", []),
    "data_list": lambda d: d.__setitem__("data", [1]),
    "score_negative": lambda d: d["data"]["game"].__setitem__("score", -10),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_save_that_does_not_load_is_moved_aside(tmp_path: Path, case: str) -> None:
    data = _saved(tmp_path)
    DAMAGE[case](data)
    store = autosave_store(tmp_path)
    store.path.write_text(json.dumps(data))
    assert Autosave(store).load() is None
    assert not store.path.exists()
    assert len(store.aside_files()) == 1


def test_clear_forgets_the_game(tmp_path: Path) -> None:
    autosave = Autosave(autosave_store(tmp_path))
    autosave.save(Game.from_code(CODES[0]), 1.0)
    autosave.clear()
    assert autosave.load() is None and autosave.seq == 0


def test_stats_file_round_trip(tmp_path: Path) -> None:
    assert load_stats(tmp_path) == Stats()
    stats = Stats().record("RU1-C-AAAAABB", won=True, seconds=100, score=625, moves=90)
    assert save_stats(stats, tmp_path)
    assert load_stats(tmp_path) == stats


class TestCrashGuard:
    def test_repeated_crashes_quarantine_the_save(self, tmp_path: Path) -> None:
        autosave = Autosave(autosave_store(tmp_path))
        autosave.save(Game.from_code(CODES[0]), 1.0)
        guard = CrashGuard(tmp_path)
        for k in range(CRASH_LIMIT - 1):
            guard.record_crash(1000.0 + k)
        assert guard.resume_or_quarantine(autosave, now=1010.0) is not None
        guard.record_crash(1011.0)
        assert guard.resume_or_quarantine(autosave, now=1012.0) is None
        assert len(autosave.store.aside_files()) == 1
        # Counting starts again: the next crash alone does not quarantine.
        autosave.save(Game.from_code(CODES[0]), 1.0)
        guard.record_crash(1013.0)
        assert guard.resume_or_quarantine(autosave, now=1014.0) is not None

    def test_old_crashes_do_not_count(self, tmp_path: Path) -> None:
        guard = CrashGuard(tmp_path)
        for k in range(CRASH_LIMIT):
            guard.record_crash(1000.0 + k * 400)
        assert not guard.too_many(now=1000.0 + CRASH_LIMIT * 400)


# --------------------------------------------------------------------------------------------
# SIGKILL at random moments


def _drive(state: Path, code: str, seed: int, limit: int, report_fd: int) -> None:
    """The restarted game, headless, through the same Session the table reports to: resume
    the autosave (or deal), then play scripted actions, reporting each step once the session
    has saved it. Runs in a forked child; never returns."""
    try:
        session = Session(Config(), state)
        resumed = session.resume()
        game = resumed.game if resumed else Game.from_code(code)
        if resumed is None:
            session.started(game)
        step = resumed.seq - 1 if resumed else 0  # the deal's own save is seq 1
        os.write(report_fd, f"start {step}\n".encode())
        while step < limit:
            step += 1
            action = scripted_action(game, step, seed)
            apply(game, action)
            session.clock.tick(clock(step) - session.clock.seconds)
            if action == "undo":
                session.undone(game)
            else:
                session.moved(game, action)
            os.write(report_fd, f"saved {step}\n".encode())
        os._exit(0)
    except BaseException:
        os._exit(4)


@pytest.mark.process  # 110 forked writers killed
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_sigkill_at_random_moments_always_resumes_the_last_finished_move(tmp_path: Path) -> None:
    code, seed, limit, kills = "RU1-C-AAAAABB", 2024, 100_000, 110
    rng = random.Random(99)
    expected = replay(code, seed, 0)
    game = Game.from_code(code)
    last_reported = 0
    mid_play_kills = 0
    for _ in range(kills):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(read_fd)
            _drive(tmp_path, code, seed, limit, write_fd)
        os.close(write_fd)
        head = b""
        if rng.random() < 0.8:
            # Mostly during play: after a few finished saves, then a little later (inside
            # the next write, or between two), however fast this machine is.
            saves = rng.randint(1, 3)
            while head.count(b"saved") < saves:
                chunk = os.read(read_fd, 4096)
                assert chunk, f"the driver died: {head!r}"
                head += chunk
            time.sleep(rng.uniform(0.0, 0.01))
        else:  # at any moment, starting and resuming included
            time.sleep(rng.uniform(0.0, 0.03))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status), f"the driver ended by itself: status {status}"
        with os.fdopen(read_fd, "rb") as pipe:
            lines = (head + pipe.read()).decode().split()
        pairs = [(kind, int(n)) for kind, n in zip(lines[::2], lines[1::2], strict=True)]
        reported = [n for _, n in pairs]
        started = [n for kind, n in pairs if kind == "start"]
        if started:
            # The restart resumed exactly the last finished move (checked below last round).
            assert started == [last_reported]
        if len(reported) > 1:
            mid_play_kills += 1
        last_reported = max([last_reported, *reported])

        # What the next restart will find: never a damaged file, always the last finished move.
        resumed = Autosave(autosave_store(tmp_path)).load()
        assert autosave_store(tmp_path).aside_files() == []
        if resumed is None:
            assert last_reported == 0
            continue
        step = resumed.seq - 1
        assert step in (last_reported, last_reported + 1)
        while len(expected) <= step:
            apply(game, scripted_action(game, len(expected), seed))
            expected.append(game.to_dict())
        assert resumed.game.to_dict() == expected[step]
        assert resumed.elapsed == clock(step)
        last_reported = step
    assert mid_play_kills >= kills // 2, "most kills should land in the middle of play"
    assert last_reported >= kills // 2  # the game went on across the restarts
