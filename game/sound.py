"""Card sounds, made by the game when sound is turned on: no files, no numpy.

Five short, soft sounds: ``pickup`` (a card lifted off the felt: a brief swish of filtered
noise), ``place`` (a card laid down: a dull thup, low-passed noise over a low thump), ``flip``
(a card turned: two quick paper clicks), ``refuse`` (a move that is not allowed: a muted
wooden knock, falling) and ``win`` (a gentle rising arpeggio, C E G C, of soft bell tones).
Each is a pure function of the sample rate (:func:`render`, seeded noise), peaks below
:data:`PEAK` of full scale, and fades in and out so that it never clicks.

:class:`Sounds` is what the game holds. Only when sound is on does it start ``pygame.mixer``
(mono, 16 bit, :data:`RATE`; SDL converts for the device) and make the sounds, once. With no
audio device the mixer does not start: the game stays silent and logs it at DEBUG only, so a
kiosk without speakers has no error in its log. Sound off never touches the mixer.
:class:`CardSounds` plays them when the table reports (game.hooks).
"""

from __future__ import annotations

import array
import functools
import logging
import math
import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import pygame

from engine import Game, Move
from engine.cards import Card
from game.config import SoundConfig
from game.hooks import TableHooks

log = logging.getLogger("solitaire.sound")

SoundName = Literal["pickup", "place", "flip", "refuse", "win"]
NAMES: tuple[SoundName, ...] = ("pickup", "place", "flip", "refuse", "win")
RATE = 22050  # ample for soft sounds, and half the work of 44.1 kHz on a small computer
PEAK = 0.4  # the loudest sample of any sound, as a fraction of full scale (about -8 dBFS)
DEFAULT_VOLUME = SoundConfig().volume  # config.toml's [sound] volume
FADE = 0.004  # seconds of fade at each end: no click


# ---------------------------------------------------------------- building blocks


def _noise(n: int, seed: int) -> list[float]:
    """White noise in -1 .. 1 from xorshift32: the same every run."""
    state = seed & 0xFFFFFFFF or 1
    out = []
    for _ in range(n):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state / 2147483647.5 - 1.0)
    return out


def _lowpass(xs: Sequence[float], cutoff: float, rate: int) -> list[float]:
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff / rate)
    y = 0.0
    out = []
    for x in xs:
        y += a * (x - y)
        out.append(y)
    return out


def _highpass(xs: Sequence[float], cutoff: float, rate: int) -> list[float]:
    return [x - low for x, low in zip(xs, _lowpass(xs, cutoff, rate), strict=True)]


def _envelope(n: int, rate: int, attack: float, decay: float) -> list[float]:
    """A linear rise over ``attack`` seconds, then an exponential fall (time constant
    ``decay``)."""
    rise = max(1, int(attack * rate))
    return [(i / rise) if i < rise else math.exp(-(i - rise) / (decay * rate)) for i in range(n)]


def _mix(into: list[float], sound: Sequence[float], at: float, rate: int, gain: float) -> None:
    start = int(at * rate)
    for i, x in enumerate(sound[: max(0, len(into) - start)]):
        into[start + i] += gain * x


def _burst(
    seconds: float, rate: int, seed: int, *, low: float, high: float, attack: float, decay: float
) -> list[float]:
    """Band-limited noise (``low`` .. ``high`` Hz) under an envelope: paper and felt."""
    n = int(seconds * rate)
    band = _lowpass(_lowpass(_highpass(_noise(n, seed), low, rate), high, rate), high, rate)
    return [x * e for x, e in zip(band, _envelope(n, rate, attack, decay), strict=True)]


def _tone(
    seconds: float,
    rate: int,
    freq: float,
    *,
    attack: float,
    decay: float,
    glide: float = 1.0,
    partials: Sequence[tuple[float, float, float]] = ((1.0, 1.0, 1.0),),
) -> list[float]:
    """A decaying tone; ``partials`` are (frequency ratio, level, decay ratio), so upper
    partials can die sooner (a bell, a marimba); ``glide``: the pitch at the end / at start."""
    n = int(seconds * rate)
    out = [0.0] * n
    rise = max(1, int(attack * rate))
    bend = glide ** (1.0 / n)  # the pitch glides by this factor each sample
    sin = math.sin
    for ratio, level, decay_ratio in partials:
        fall = math.exp(-1.0 / (decay * decay_ratio * rate))  # the envelope, each sample
        step = 2.0 * math.pi * freq * ratio / rate
        phase = 0.0
        gain = level
        for i in range(n):
            phase += step
            step *= bend
            if i < rise:
                out[i] += level * (i / rise) * sin(phase)
            else:
                out[i] += gain * sin(phase)
                gain *= fall
    return _fade_out(out, min(0.05, seconds / 4), rate)


def _fade_out(xs: list[float], seconds: float, rate: int) -> list[float]:
    """A linear fade over the last ``seconds``: a tone that is cut off does not click."""
    n = min(len(xs), max(1, int(seconds * rate)))
    for i in range(n):
        xs[len(xs) - 1 - i] *= i / n
    return xs


def _finish(xs: list[float], rate: int) -> list[float]:
    """Fade both ends and scale the loudest sample to :data:`PEAK`."""
    fade = max(1, int(FADE * rate))
    n = len(xs)
    for i in range(min(fade, n)):
        xs[i] *= i / fade
        xs[n - 1 - i] *= i / fade
    top = max((abs(x) for x in xs), default=0.0)
    return [x * PEAK / top for x in xs] if top > 0 else xs


# ---------------------------------------------------------------- the five sounds


def _pickup(rate: int) -> list[float]:
    return _burst(0.07, rate, 11, low=1500, high=5000, attack=0.006, decay=0.015)


def _place(rate: int) -> list[float]:
    out = _burst(0.11, rate, 23, low=120, high=1400, attack=0.001, decay=0.022)
    thump = _tone(0.11, rate, 150.0, attack=0.002, decay=0.025, glide=0.7)
    _mix(out, thump, 0.0, rate, 0.5)
    return out


def _flip(rate: int) -> list[float]:
    out = [0.0] * int(0.09 * rate)
    for at, gain, seed in ((0.0, 1.0, 37), (0.028, 0.6, 41)):
        click = _burst(0.03, rate, seed, low=2000, high=7000, attack=0.0005, decay=0.005)
        _mix(out, click, at, rate, gain)
    swish = _burst(0.09, rate, 43, low=800, high=3000, attack=0.02, decay=0.02)
    _mix(out, swish, 0.0, rate, 0.3)
    return out


def _refuse(rate: int) -> list[float]:
    wood = ((1.0, 1.0, 1.0), (2.76, 0.25, 0.3))  # a wood block's inharmonic second mode
    out = [0.0] * int(0.26 * rate)
    for at, freq, gain in ((0.0, 220.0, 1.0), (0.1, 165.0, 0.8)):
        knock = _tone(0.14, rate, freq, attack=0.004, decay=0.035, glide=0.85, partials=wood)
        _mix(out, knock, at, rate, gain)
    return out


def _win(rate: int) -> list[float]:
    bell = ((1.0, 1.0, 1.0), (2.0, 0.3, 0.5), (3.0, 0.1, 0.3))
    out = [0.0] * int(1.25 * rate)
    for k, freq in enumerate((523.25, 659.26, 783.99, 1046.5)):  # C5 E5 G5 C6
        note = _tone(0.9, rate, freq, attack=0.008, decay=0.25, partials=bell)
        _mix(out, note, 0.11 * k, rate, 0.8 if k < 3 else 1.0)
    return _fade_out(out, 0.2, rate)


_MAKERS: dict[SoundName, Callable[[int], list[float]]] = {
    "pickup": _pickup,
    "place": _place,
    "flip": _flip,
    "refuse": _refuse,
    "win": _win,
}


def render(name: SoundName, rate: int = RATE) -> list[float]:
    """The samples of sound ``name`` at ``rate`` Hz, mono, in -PEAK .. PEAK."""
    return _finish(_MAKERS[name](rate), rate)


@functools.lru_cache(maxsize=len(NAMES))
def _pcm(name: SoundName, rate: int, channels: int) -> bytes:
    """Sound ``name`` as the mixer takes it, made once per run (turning sound off and on again
    in settings does not wait for the sounds to be made again). A memo, not state: the samples
    are a pure function of the arguments and this module's constants, so the cache can only
    save time, never change what is played."""
    return to_pcm16(render(name, rate), channels)


def to_pcm16(samples: Sequence[float], channels: int = 1) -> bytes:
    """Signed 16-bit samples in the machine's byte order (what the mixer's -16 format takes),
    each repeated for ``channels`` channels."""
    pcm = array.array("h", (round(max(-1.0, min(1.0, x)) * 32767) for x in samples))
    if channels > 1:
        pcm = array.array("h", (v for v in pcm for _ in range(channels)))
    return pcm.tobytes()


def write_wav(path: Path, samples: Sequence[float], rate: int = RATE) -> None:
    """A mono 16-bit WAV file of ``samples`` (to listen to or measure the sounds)."""
    pcm = array.array("h", to_pcm16(samples))
    if sys.byteorder == "big":
        pcm.byteswap()
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(pcm.tobytes())


# ---------------------------------------------------------------- the game's sounds


class Sounds:
    """The game's sounds: ``play(name)`` while sound is on, nothing while it is off or there is
    no audio device. ``volume`` 0 .. 1 (the settings' slider)."""

    def __init__(self, *, enabled: bool = False, volume: float = DEFAULT_VOLUME) -> None:
        self._sounds: dict[SoundName, pygame.mixer.Sound] = {}
        self._started = False  # this object started the mixer (and quits it)
        self._failed = False  # no audio device: stay silent, do not try again every play
        self._enabled = False
        self._volume = DEFAULT_VOLUME
        self.set_volume(volume)
        self.set_enabled(enabled)

    @property
    def enabled(self) -> bool:
        return self._enabled

    @property
    def volume(self) -> float:
        return self._volume

    def sound(self, name: SoundName) -> pygame.mixer.Sound | None:
        """The sound ``name`` as it plays (its samples and volume), None while none is loaded."""
        return self._sounds.get(name)

    @property
    def audible(self) -> bool:
        """Sound is on and the sounds are ready (False with no audio device)."""
        return self._enabled and bool(self._sounds)

    def set_enabled(self, on: bool) -> None:
        """Turn sound on (starting the mixer) or off (stopping it again). Turning it on tries
        the audio device again (a speaker may have been plugged in); playing does not."""
        if on and not self._enabled:
            self._failed = False
        self._enabled = bool(on)
        if self._enabled and not self._sounds and not self._failed:
            self._start()
        elif not self._enabled:
            self.close()

    def set_volume(self, volume: float) -> None:
        """The volume of every sound, 0 (silent) .. 1; other values are clamped, NaN ignored."""
        try:
            value = float(volume)
        except (TypeError, ValueError):
            return
        if math.isnan(value):
            return
        self._volume = min(1.0, max(0.0, value))
        for sound in self._sounds.values():
            sound.set_volume(self._volume)

    def play(self, name: SoundName) -> None:
        """Play ``name`` (one of :data:`NAMES`) if sound is on; never raises for the device."""
        if name not in _MAKERS:
            raise ValueError(f"unknown sound {name!r}; known: {', '.join(NAMES)}")
        sound = self._sounds.get(name) if self._enabled else None
        if sound is None:
            return
        try:
            sound.play()
        except pygame.error as error:
            log.debug("sound %s not played: %s", name, error)

    def close(self) -> None:
        """Drop the sounds and stop the mixer if this object started it."""
        for sound in self._sounds.values():
            sound.stop()
        self._sounds = {}
        if self._started:
            self._started = False
            pygame.mixer.quit()

    def _start(self) -> None:
        try:
            if pygame.mixer.get_init() is None:
                # allowedchanges=0: SDL converts mono 16-bit RATE to whatever the device takes.
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, allowedchanges=0)
                self._started = True
            spec = pygame.mixer.get_init()
            if spec is None or spec[1] != -16:
                raise pygame.error(f"mixer format {spec}, not 16-bit")
            rate, _, channels = spec
            self._sounds = {
                name: pygame.mixer.Sound(buffer=_pcm(name, rate, channels)) for name in NAMES
            }
        except (pygame.error, OSError, ValueError) as error:
            log.debug("no sound (%s): playing silently", error)
            self._failed = True
            self.close()
            return
        self.set_volume(self._volume)
        log.debug("sound on: %d Hz, %d channel(s)", rate, channels)


class CardSounds(TableHooks):
    """The table's reports as sounds (a listener of ``app.hooks``, game.hooks): a card picked
    up, a move that lands (the cards of an undo land too), a hidden card turned up by a move,
    a refusal, the winning move (its arpeggio instead of the thup). The attract screen's and
    the Examples page's tables report to hooks of their own, so they stay silent."""

    def __init__(self, sounds: Sounds) -> None:
        self.sounds = sounds

    def lifted(self, game: Game, card: Card) -> None:
        self.sounds.play("pickup")

    def moved(self, game: Game, move: Move) -> None:
        if game.is_won:
            self.sounds.play("win")
            return
        self.sounds.play("place")
        if game.history and sum(game.history[-1].before.down) > sum(game.down):
            self.sounds.play("flip")

    def undone(self, game: Game) -> None:
        self.sounds.play("place")

    def refused(self, game: Game) -> None:
        self.sounds.play("refuse")
