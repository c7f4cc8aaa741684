"""Card sounds (game.sound): soft, short, the right shape; silent and quiet without a device;
the mixer untouched while sound is off."""

from __future__ import annotations

import itertools
import logging
import math
import os
import subprocess
import sys
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path

import pygame
import pytest

from game import sound
from game.sound import NAMES, PEAK, RATE, Sounds, render, to_pcm16, write_wav

pytestmark = pytest.mark.app

CARD_SOUNDS: tuple[sound.SoundName, ...] = ("pickup", "place", "flip")


@pytest.fixture(autouse=True)
def no_mixer() -> Iterator[None]:
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def energy(samples: Sequence[float], freq: float, rate: int = RATE) -> float:
    """Goertzel: how much of ``freq`` there is in ``samples``."""
    coeff = 2.0 * math.cos(2.0 * math.pi * freq / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + coeff * s1 - s2, s1
    return s1 * s1 + s2 * s2 - coeff * s1 * s2


def crossings(samples: Sequence[float]) -> float:
    """Zero crossings per second: high for a swish, low for a thud."""
    signs = [x >= 0 for x in samples]
    return sum(a != b for a, b in itertools.pairwise(signs)) * RATE / len(samples)


def window(samples: Sequence[float], start: float, stop: float) -> Sequence[float]:
    return samples[int(start * RATE) : int(stop * RATE)]


class TestTheSounds:
    @pytest.mark.parametrize("name", NAMES)
    def test_soft_and_without_clicks(self, name: sound.SoundName) -> None:
        samples = render(name)
        peak = max(abs(x) for x in samples)
        assert 0.9 * PEAK <= peak <= PEAK + 1e-9 and PEAK <= 0.5  # audible, well below full scale
        assert abs(samples[0]) < 0.01 and abs(samples[-1]) < 0.01  # starts and ends at rest

    @pytest.mark.parametrize(("name", "low", "high"), [(n, 0.04, 0.15) for n in CARD_SOUNDS])
    def test_card_sounds_are_short(self, name: sound.SoundName, low: float, high: float) -> None:
        assert low <= len(render(name)) / RATE <= high

    def test_refusal_and_win_lengths(self) -> None:
        assert 0.15 <= len(render("refuse")) / RATE <= 0.4
        assert 0.8 <= len(render("win")) / RATE <= 1.6

    def test_the_same_every_start(self) -> None:
        assert render("flip") == render("flip")
        assert render("place", 44100) == render("place", 44100)
        assert abs(len(render("win", 44100)) - 2 * len(render("win", RATE))) <= 2

    def test_a_card_laid_down_is_duller_than_one_lifted_or_turned(self) -> None:
        place = crossings(render("place"))
        assert place * 2 < crossings(render("pickup")) and place * 2 < crossings(render("flip"))

    def test_the_card_sounds_are_noise_not_a_beep(self) -> None:
        """No single pitch holds the energy of a card sound (a beep would put most of it in
        one frequency)."""
        for name in CARD_SOUNDS:
            samples = render(name)
            total = sum(x * x for x in samples) * len(samples) / 2
            strongest = max(energy(samples, f) for f in range(200, 8000, 100))
            assert strongest < 0.1 * total, name

    def test_the_win_climbs_c_e_g_c(self) -> None:
        win = render("win")
        notes = (523.25, 659.26, 783.99, 1046.5)
        for k, freq in enumerate(notes):
            heard = window(win, 0.11 * k + 0.01, 0.11 * k + 0.1)
            before = window(win, max(0.0, 0.11 * k - 0.1), 0.11 * k - 0.005) if k else []
            assert energy(heard, freq) > 10 * max(energy(before, freq), 1e-9), freq

    def test_the_refusal_is_low(self) -> None:
        refuse = render("refuse")
        assert energy(refuse, 220) > 20 * energy(refuse, 1000)


class TestBuffers:
    @pytest.mark.parametrize("channels", [1, 2])
    def test_pcm16_length_and_level(self, channels: int) -> None:
        samples = render("pickup")
        data = to_pcm16(samples, channels)
        assert len(data) == len(samples) * 2 * channels
        values = memoryview(data).cast("h")
        assert max(abs(v) for v in values) <= round(PEAK * 32767)
        if channels == 2:
            assert values[0::2].tolist() == values[1::2].tolist()

    def test_pcm16_clamps(self) -> None:
        assert memoryview(to_pcm16([2.0, -2.0, 0.5])).cast("h").tolist() == [32767, -32767, 16384]

    def test_the_mixers_sounds_are_the_rendered_ones(self) -> None:
        sounds = Sounds(enabled=True)
        assert pygame.mixer.get_init() == (RATE, -16, 1)
        assert sounds.audible
        for name in NAMES:
            raw = sounds.sound(name).get_raw()
            assert len(raw) == 2 * len(render(name))
            assert sounds.sound(name).get_length() == pytest.approx(len(render(name)) / RATE)

    def test_wav_files(self, tmp_path: Path) -> None:
        path = tmp_path / "win.wav"
        write_wav(path, render("win"))
        with wave.open(str(path)) as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, RATE)
            assert wav.getnframes() == len(render("win"))


class TestSoundsObject:
    def test_sound_off_never_starts_the_mixer(self) -> None:
        sounds = Sounds()
        for name in NAMES:
            sounds.play(name)
        sounds.set_volume(0.3)
        assert pygame.mixer.get_init() is None and not sounds.audible
        assert Sounds(enabled=False, volume=1.0).enabled is False
        assert pygame.mixer.get_init() is None

    def test_turning_sound_on_and_off(self) -> None:
        sounds = Sounds(enabled=False)
        sounds.set_enabled(True)
        assert pygame.mixer.get_init() is not None and sounds.audible
        sounds.play("win")
        sounds.set_enabled(False)
        assert pygame.mixer.get_init() is None and not sounds.audible
        sounds.play("place")  # off again: nothing, no error

    def test_volume(self) -> None:
        sounds = Sounds(enabled=True, volume=0.5)
        assert sounds.sound("place").get_volume() == pytest.approx(0.5, abs=0.01)
        for asked, kept in ((2.0, 1.0), (-1.0, 0.0), (float("nan"), 0.0), (0.25, 0.25)):
            sounds.set_volume(asked)
            assert sounds.volume == kept
            assert sounds.sound("win").get_volume() == pytest.approx(kept, abs=0.01)

    def test_a_mixer_started_by_someone_else_is_used_and_left_running(self) -> None:
        pygame.mixer.init(frequency=44100, size=-16, channels=2, allowedchanges=0)
        sounds = Sounds(enabled=True)
        assert len(sounds.sound("flip").get_raw()) == 2 * 2 * len(render("flip", 44100))
        sounds.close()
        assert pygame.mixer.get_init() == (44100, -16, 2)

    def test_an_unknown_sound_is_a_programming_error(self) -> None:
        with pytest.raises(ValueError, match="unknown sound 'ding'"):
            Sounds().play("ding")  # type: ignore[arg-type]

    def test_no_audio_device_is_silent_and_quiet(
        self, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
    ) -> None:
        calls: list[object] = []

        def fail(*args: object, **kwargs: object) -> None:
            calls.append(args)
            raise pygame.error("No available audio device")

        monkeypatch.setattr(pygame.mixer, "init", fail)
        with caplog.at_level(logging.DEBUG, logger="solitaire.sound"):
            sounds = Sounds(enabled=True)
            for name in NAMES:
                sounds.play(name)
            sounds.set_volume(1.0)
        assert not sounds.audible and sounds.enabled
        assert len(calls) == 1  # not tried again on every play
        sounds.set_enabled(False)
        sounds.set_enabled(True)  # the player turns it on again: one more try
        assert len(calls) == 2 and not sounds.audible
        assert caplog.records and all(r.levelno == logging.DEBUG for r in caplog.records)

    @pytest.mark.process
    def test_no_audio_device_for_real(self) -> None:
        """SDL with an audio driver that does not exist: no exception, nothing on stderr even
        with logging at INFO."""
        script = (
            "import logging; logging.basicConfig(level=logging.INFO)\n"
            "from game.sound import Sounds\n"
            "s = Sounds(enabled=True); s.play('win'); s.play('place')\n"
            "print('audible', s.audible)\n"
        )
        env = {**os.environ, "SDL_AUDIODRIVER": "no-such-driver", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "audible False" and done.stderr == ""
