"""The documentation stands alone and quotes the engine as it is.

Code and docs may point only at files the repository holds: no document that lives outside it
(the project's old contract and platform notes, the shared folder beside the checkout), no
link to a ``docs/*.md``
or a repository path that does not exist. The golden values that docs/codes.md quotes are
parsed out of the page and compared with what engine.deal produces, and the refusal ids the
pages list are the engine's, so the pages cannot drift silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import ALL_RULES, Game, format_code, parse_code
from engine.cards import card_name
from engine.deal import shuffled_deck, splitmix64
from engine.reasons import CODE_REASONS, REASONS

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = ("README.md", "rules.md", "codes.md", "save-format.md", "architecture.md")
SKIP_DIRS = {
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    ".hypothesis",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
}
SKIP_SUFFIXES = {".ttf", ".png", ".jpg", ".pyc", ".gz", ".zip"}

# Documents that are not in the repository (spelled so that this file does not name them).
OUTSIDE = re.compile(r"\b(?:SPEC|PLATFORM|STYLE)\.md\b|\.\./shared\b|/work/(?:shared)\b")
DOCS_MENTION = re.compile(r"\bdocs/([\w.-]+\.md)\b")
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)  # a fenced code block's lines
REPO_PATH = re.compile(r"`((?:engine|game|tests|assets|kiosk|docs|scripts)/[\w./-]*)`")


def text_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*")):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix not in SKIP_SUFFIXES:
            yield path


def matches(pattern: re.Pattern[str], suffix: str = "") -> Iterator[tuple[Path, re.Match[str]]]:
    """Every match of ``pattern`` in the repository's text files (ending in ``suffix``)."""
    for path in text_files():
        if not path.name.endswith(suffix):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text
        for match in pattern.finditer(text):
            yield path, match


def where(path: Path, match: re.Match[str]) -> str:
    line = match.string.count("\n", 0, match.start()) + 1
    return f"{path.relative_to(ROOT)}:{line}: {match.group(0)}"


class TestPointers:
    def test_the_pages_are_there(self) -> None:
        missing = [name for name in PAGES if not (DOCS / name).is_file()]
        assert not missing, f"docs/ lacks {missing}"

    def test_nothing_points_outside_the_repository(self) -> None:
        found = [where(path, match) for path, match in matches(OUTSIDE)]
        assert not found, "pointers to documents outside the repository (use docs/):\n" + "\n".join(
            found
        )

    def test_every_docs_page_named_anywhere_exists(self) -> None:
        found = [
            where(path, match)
            for path, match in matches(DOCS_MENTION)
            if not (DOCS / match.group(1)).is_file()
        ]
        assert not found, "names of docs pages that do not exist:\n" + "\n".join(found)

    def test_every_markdown_link_leads_to_a_file(self) -> None:
        found = []
        for path, match in matches(MD_LINK, ".md"):
            target = match.group(1).split("#")[0]
            if not target or re.match(r"[a-z]+:", target):
                continue  # an anchor on the same page, or a web address
            if not (path.parent / target).exists():
                found.append(where(path, match))
        assert not found, "links to files that do not exist:\n" + "\n".join(found)

    def test_every_repository_path_the_docs_name_exists(self) -> None:
        found = []
        for path, match in matches(REPO_PATH, ".md"):
            name = match.group(1).split("::")[0]
            if path.parent != DOCS or "<" in name or "*" in name:
                continue  # another page, or a pattern such as assets/deals/<KEY>.txt
            if not (ROOT / name).exists():
                found.append(where(path, match))
        assert not found, "docs name files that are not in the repository:\n" + "\n".join(found)


# ------------------------------------------------------------------------------ golden values


def golden_lines() -> list[str]:
    text = (DOCS / "codes.md").read_text(encoding="utf-8")
    block = re.search(r"^```golden\n(.*?)^```", text, re.S | re.M)
    assert block is not None, "docs/codes.md has no ```golden block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def position(code: str, pile: str) -> list[str]:
    data = Game.from_code(code).to_dict()
    if pile == "cells":
        return [".." if card is None else card for card in data["cells"]]
    assert re.fullmatch(r"t\d+", pile), f"unknown pile {pile!r}"
    columns: list[list[str]] = data["columns"]
    return columns[int(pile[1:]) - 1]


def test_the_golden_block_is_long_enough_to_matter() -> None:
    lines = golden_lines()
    assert len(lines) >= 10
    assert any(line.startswith("deal 0 deck:") for line in lines)
    assert {line.split()[0] for line in lines} >= {"RU1-C-AAAAABB", "SH1-C4-AAAAAJ2"}


@pytest.mark.parametrize("line", golden_lines())
def test_docs_golden_value_is_what_the_engine_deals(line: str) -> None:
    subject, _, value = line.partition(":")
    words, quoted = subject.split(), value.split()
    if words[0] == "deal" and words[2:] == ["deck"]:
        deck = [card_name(c) for c in shuffled_deck(int(words[1]))]
        assert deck[: len(quoted)] == quoted
    elif words[0] == "splitmix64" and words[2:] == ["first", "draw"]:
        assert next(splitmix64(int(words[1]))) == int(value, 16)
    elif len(words) == 2 and words[1] == "number":
        rules, number = parse_code(words[0])
        assert number == int(value)
        assert format_code(rules, number) == words[0]
    elif len(words) == 2:
        assert position(words[0], words[1]) == quoted
    else:
        pytest.fail(f"docs/codes.md golden line not understood: {line!r}")


# ------------------------------------------------------------------------------ listed ids


@pytest.mark.parametrize(
    ("page", "ids"),
    [
        ("rules.md", [r.key for r in ALL_RULES]),
        ("codes.md", [f"{r.key}-XXXXXXX" for r in ALL_RULES]),
        ("rules.md", list(REASONS)),
        ("codes.md", list(CODE_REASONS)),
    ],
)
def test_the_pages_list_every_rule_set_and_refusal_of_the_engine(page: str, ids: list[str]) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    missing = [name for name in ids if f"`{name}`" not in text]
    assert not missing, f"docs/{page} does not list {missing}"


def doc_sessions() -> Iterator[tuple[str, str, list[str]]]:
    """Every ``$ python -m engine ...`` line in a code block of the docs, with the lines the page
    shows it printing (up to the next ``$`` line or the block's end; ``...`` stands for lines
    left out)."""
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for block in FENCED.findall(path.read_text(encoding="utf-8")):
            command, shown = "", []
            for line in [*block.splitlines(), "$"]:
                if line.startswith("$"):
                    if command.startswith("python -m engine "):
                        yield path.name, command, shown
                    command, shown = line[1:].strip(), []
                else:
                    shown.append(line)


def test_the_docs_show_some_engine_sessions() -> None:
    assert len(list(doc_sessions())) >= 3


@pytest.mark.process
@pytest.mark.parametrize(
    ("page", "command", "shown"), list(doc_sessions()), ids=lambda v: str(v)[:40]
)
def test_a_command_the_docs_show_prints_what_they_show(
    page: str, command: str, shown: list[str]
) -> None:
    """An example session of a page is run as typed and prints what the page shows (the codes
    of a day, a position, a refusal), so a catalog or a rule that changes cannot leave it
    stale."""
    import shlex
    import subprocess
    import sys

    args = shlex.split(command)[3:]  # after "python -m engine"
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = (done.stdout + done.stderr).splitlines()
    if "..." in shown:
        head = shown[: shown.index("...")]
        assert printed[: len(head)] == head, f"{page}: $ {command}"
    else:
        assert printed == shown, f"{page}: $ {command}"


# ------------------------------------------------------------------------------ code names

CODE_NAME = re.compile(r"(?<![\w./-])((?:engine|game)(?:\.[A-Za-z_]\w*)+)")


def prose() -> Iterator[tuple[str, str]]:
    """Where each piece of prose is, and its text: the docstrings (and attribute strings) of
    the code and the tests, and the docs' pages."""
    import ast

    for folder in ("engine", "game", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                string = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                text = node.value.value if string else None  # type: ignore[attr-defined]
                if isinstance(text, str):
                    yield f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}", text
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def stale(name: str) -> bool:
    """Whether a dotted name that starts with one of the code's modules (``game.saves`` but not
    a variable's ``game.moves``) names no module, or names a module and then something it does
    not hold (only the first name after the module is looked up: a class's fields are not)."""
    import importlib

    parts = name.split(".")

    def is_module(depth: int) -> bool:
        path = ROOT.joinpath(*parts[:depth])
        return path.is_dir() or path.with_suffix(".py").is_file()

    if not is_module(2):
        return False  # not a module's name: a variable such as a Game called game
    depth = 2
    while depth < len(parts) and is_module(depth + 1):
        depth += 1
    if depth == len(parts):
        return False
    module = importlib.import_module(".".join(parts[:depth]))
    return not hasattr(module, parts[depth])


def test_every_module_the_prose_names_exists() -> None:
    """A module renamed or moved, or a function renamed, fails here while a docstring or a page
    still names the old one (the session module, after it moved from kiosk to saves)."""
    found = sorted(
        {
            f"{where}: {name}"
            for where, text in prose()
            for name in CODE_NAME.findall(text)
            if stale(name)
        }
    )
    assert not found, "names of modules or their contents that do not exist:\n" + "\n".join(found)
