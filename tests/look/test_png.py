"""Screenshots (main.py --screenshot, the tests' pictures) are written by game.look.png: an
ordinary PNG that any reader opens to the same pixels."""

from pathlib import Path

import pygame
import pytest

from game.look.png import save_png

pytestmark = pytest.mark.app


def test_a_screenshot_reads_back_as_the_same_pixels(tmp_path: Path) -> None:
    surface = pygame.Surface((37, 21))
    for x in range(37):
        for y in range(21):
            surface.set_at((x, y), (x * 7 % 256, y * 12 % 256, (x * y) % 256))
    path = tmp_path / "screens" / "shot.png"  # its folder made as it is written
    save_png(surface, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    back = pygame.image.load(str(path))
    assert back.get_size() == (37, 21)
    assert pygame.image.tobytes(back, "RGB") == pygame.image.tobytes(surface, "RGB")
