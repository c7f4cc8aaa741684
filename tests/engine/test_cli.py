"""``python -m engine``: the command line of docs/codes.md."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cli import main

pytestmark = pytest.mark.unit


def run(*args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def test_show_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "RU1-C-AAAAABB"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("RU1-C-AAAAABB")
    assert "t7  ## ## ## ## ## ## KH QH 8D JH 2C" in out


def test_show_json_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "ru1-c-aaaaabb", "AC-f", "2C-f", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["code"] == "RU1-C-AAAAABB"
    assert data["foundations"] == [0, 0, 0, 2] and data["score"] == 20 and data["moves"] == 2


def test_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "RU1-C-AAAAABB", "--json"]) == 0
    assert sorted(json.loads(capsys.readouterr().out)) == ["3C-t1", "4D-t3", "AC-f", "AC-t7"]


@pytest.mark.process
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "RU1-Q-AAAAABB"], "not a rule set"),
        (["show", "RU1-C-AAAAABB", "5D-t3"], "move 1 ('5D-t3') is refused"),
        (["moves", "RU1-C-AAAAABB", "nonsense"], "refused"),
        (["show"], "required"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args: list[str], words: str) -> None:
    status, out, err = run(*args)
    assert status == 2 and out == ""
    assert words in err


@pytest.mark.process
def test_engine_bench_prints_figures_for_every_rule_set() -> None:
    status, out, _ = run("bench", "--count", "3", "--json")
    assert status == 0
    figures = json.loads(out)
    assert set(figures) == {"RU1-C", "RU1-R", "SH1-C4", "SH1-C2", "SH1-C1"}
    assert all(f["legal_moves_us"] > 0 and f["play_undo_us"] > 0 for f in figures.values())


@pytest.mark.process
def test_the_engine_imports_without_pygame() -> None:
    # pygame made unimportable, as on a machine without it; every engine module still loads,
    # those of its subpackages too.
    code = (
        "import sys\nsys.modules['pygame'] = None\nimport pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__': importlib.import_module(m.name)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_each_public_engine_name_is_written_once_and_loads_when_first_used() -> None:
    """engine/__init__.py names each public name once, in its type-checking imports (what mypy
    reads); ``engine.Name``, ``from engine import *`` and ``__all__`` follow them, and reading
    engine.rules alone (as the game does before its window) loads no other engine module."""
    import ast
    import importlib
    from pathlib import Path

    import engine

    tree = ast.parse((Path(engine.__file__)).read_text(encoding="utf-8"))
    block = next(
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    )
    written = [
        (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]
    assert len(written) == 14 and all(module for module, _ in written)
    assert engine.__all__ == sorted(name for _, name in written)
    for module, name in written:
        assert getattr(engine, name) is getattr(importlib.import_module(str(module)), name)
    with pytest.raises(AttributeError, match="no attribute 'Gmae'"):
        engine.Gmae  # noqa: B018
    lazy = (
        "import sys, engine.rules\n"
        "print(sorted(m for m in sys.modules if m.startswith('engine')))\n"
        "from engine import *\n"
        "print(Game.__module__, parse_code.__module__)\n"
    )
    done = subprocess.run([sys.executable, "-c", lazy], timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.splitlines()
    assert before == "['engine', 'engine.cards', 'engine.rules']"
    assert after == "engine.game engine.codes"
