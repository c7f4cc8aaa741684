"""A fixed-timestep clock (after Arcade's FixedClock): real time accumulates, the world advances
in steps of 1/60 s, and a long stall is clamped so the game never races to catch up."""

from __future__ import annotations

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

    @property
    def fraction(self) -> float:
        return self.accumulated / self.step

    def advance(self, real_dt: float, *, clamp: bool = True) -> int:
        """Add ``real_dt`` seconds of real time; return how many steps to run now. With
        ``clamp`` a stall counts as at most ``max_steps`` steps (no racing to catch up); an
        idle loop that slept on purpose passes ``clamp=False`` (still capped at 10 s)."""
        limit = self.step * self.max_steps if clamp else 10.0
        self.accumulated += min(max(real_dt, 0.0), limit)
        steps = int(self.accumulated / self.step + 1e-9)
        self.accumulated = max(0.0, self.accumulated - steps * self.step)
        self.time += steps * self.step
        return steps
