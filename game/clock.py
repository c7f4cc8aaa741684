"""Time in the game. :class:`FixedClock` is the one source of time (after Arcade's
FixedClock): real time accumulates, the world advances in steps of 1/60 s, and a long stall is
clamped so the game never races to catch up. :class:`PlayTime` is the one owner of a game's
play time, advanced by the table from that clock and read by the info bar, the win screen, the
statistics and the autosave; :func:`format_clock` is the one way it is written.
:class:`FrameWindow` keeps the slowest frame of the last minute (the metrics show it)."""

from __future__ import annotations

from collections import deque

STEP = 1 / 60
MAX_STEPS = 6


class FixedClock:
    def __init__(self, step: float = STEP, max_steps: int = MAX_STEPS) -> None:
        self.step = step
        self.max_steps = max_steps
        self.time = 0.0  # game seconds, advanced only by steps
        self.accumulated = 0.0

    @property
    def now_ms(self) -> float:
        return self.time * 1000.0

    def advance(self, real_dt: float, *, clamp: bool = True) -> int:
        """Add ``real_dt`` seconds of real time; return how many steps to run now (each one
        moves :attr:`time` on by :meth:`tick`). With ``clamp`` a stall counts as at most
        ``max_steps`` steps (no racing to catch up); an idle loop that slept on purpose passes
        ``clamp=False`` (still capped at 10 s)."""
        limit = self.step * self.max_steps if clamp else 10.0
        self.accumulated += min(max(real_dt, 0.0), limit)
        steps = int(self.accumulated / self.step + 1e-9)
        self.accumulated = max(0.0, self.accumulated - steps * self.step)
        return steps

    def tick(self) -> float:
        """One step: the game's time moves on by ``step`` seconds (returned)."""
        self.time += self.step
        return self.step


class PlayTime:
    """Seconds of play of the game on the table: it runs while the table ticks it (a game with
    moves, not won, the table on top) and stops for good on a win until :meth:`reset`."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.running = True

    def tick(self, dt: float) -> None:
        if self.running and dt > 0:
            self.seconds += dt

    def reset(self, seconds: float = 0.0) -> None:
        """A new game (0), or a saved one resumed at ``seconds``."""
        self.seconds = seconds
        self.running = True

    def text(self) -> str:
        return format_clock(self.seconds)


def format_clock(seconds: float) -> str:
    """Whole seconds of play as a clock: "4:05", "1:15:00" past an hour (never "75:00")."""
    s = max(0, int(seconds))
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


FRAME_WINDOW_S = 60  # the slowest frame is the slowest of this many last seconds


class FrameWindow:
    """The slowest frame of the last FRAME_WINDOW_S seconds: one maximum per second, so a
    frame costs a comparison and the window never grows."""

    def __init__(self) -> None:
        self._seconds: deque[tuple[int, float]] = deque(maxlen=FRAME_WINDOW_S + 1)

    def add(self, now: float, seconds: float) -> None:
        second = int(now)
        if self._seconds and self._seconds[-1][0] == second:
            if seconds > self._seconds[-1][1]:
                self._seconds[-1] = (second, seconds)
        else:
            self._seconds.append((second, seconds))

    def slowest(self, now: float) -> float:
        """The slowest frame within the last FRAME_WINDOW_S seconds before ``now`` (0: none)."""
        oldest = int(now) - FRAME_WINDOW_S
        return max((s for second, s in self._seconds if second > oldest), default=0.0)
