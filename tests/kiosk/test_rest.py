"""The loop's rest and wake (game.kiosk.wake.Rest), one policy: it sleeps until the next deadline,
never
past the watchdog's next ping, and after a wake that brought no event it pauses instead of
waiting again on a socket that stays readable."""

from __future__ import annotations

import pytest

from game.kiosk.wake import Rest, Waker

pytestmark = pytest.mark.unit


class Recorder(Waker):
    """A waker that sleeps not at all and notes what the loop asked of it; ``readable``: what
    each wait on the X connection says."""

    def __init__(self, readable: list[bool]) -> None:
        super().__init__(None, 1 / 60)
        self.readable = readable
        self.calls: list[tuple[str, float]] = []

    def wait(self, seconds: float) -> bool:
        self.calls.append(("wait", round(seconds, 3)))
        return self.readable.pop(0) if self.readable else False

    def pause(self, seconds: float) -> None:
        self.calls.append(("pause", round(seconds, 3)))

    def heard(self) -> None:
        self.calls.append(("heard", 0.0))


def test_it_sleeps_until_the_deadline_and_runs_a_frame_when_the_time_is_up() -> None:
    waker = Recorder([False])
    rest = Rest(waker)
    assert rest.sleep(0.2) is True  # slept: look at the events again
    assert rest.sleep(0.0) is False  # the deadline is here: a frame
    assert rest.sleep(-0.01) is False
    assert waker.calls == [("wait", 0.2)]


def test_it_never_sleeps_past_the_next_watchdog_ping() -> None:
    waker = Recorder([])
    rest = Rest(waker)
    assert rest.sleep(0.25, watchdog=0.1) is True
    assert rest.sleep(0.05, watchdog=0.1) is True  # the ping is later than the deadline
    assert waker.calls == [("wait", 0.1), ("wait", 0.05)]


def test_an_empty_wake_is_followed_by_a_pause_not_another_wait() -> None:
    """The X connection woke the loop but SDL had no event yet: the next sleep is a pause
    (whatever comes), then the loop waits on the connection again."""
    waker = Recorder([True, True])
    rest = Rest(waker)
    assert rest.sleep(0.2)  # woke for the socket
    assert rest.sleep(0.19)  # no event came: a pause
    assert rest.sleep(0.18)  # then a wait again
    assert waker.calls == [("wait", 0.2), ("pause", 0.19), ("wait", 0.18)]


def test_a_frame_forgets_the_wake_and_events_give_the_quick_second_look_again() -> None:
    waker = Recorder([True, True])
    rest = Rest(waker)
    assert rest.sleep(0.2)  # woke for the socket...
    rest.frame(events=True)  # ...and the events came: a frame
    assert rest.sleep(0.2)  # a wait, not a pause
    rest.frame(events=False)  # a deadline's frame: no events to hear
    assert waker.calls == [("wait", 0.2), ("heard", 0.0), ("wait", 0.2)]
    assert not rest.woke
