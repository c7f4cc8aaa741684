"""Screenshots written as PNG files quickly (main.py --screenshot, game.dev.script's ``shot``, and
the pictures the tests keep for people to look at in out/screens/): pygame.image.save compresses
hard (about 55 ms for a 1920x1080 screen), which a picture looked at once, and written again at
every run, does not need; here zlib's fastest level, a third of that time. The file is an
ordinary 8-bit RGB PNG (any alpha is left out, as pygame leaves it out of a display's)."""

from __future__ import annotations

import struct
import zlib
from os import PathLike
from pathlib import Path

import pygame


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def save_png(surface: pygame.Surface, path: str | PathLike[str]) -> None:
    """``surface`` as a PNG file at ``path`` (RGB, no filter, zlib level 1), its folder made
    where it is missing."""
    width, height = surface.get_size()
    pixels = pygame.image.tobytes(surface, "RGB")
    stride = width * 3
    rows = b"".join(b"\0" + pixels[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n")
        file.write(_chunk(b"IHDR", header))
        file.write(_chunk(b"IDAT", zlib.compress(rows, 1)))
        file.write(_chunk(b"IEND", b""))
