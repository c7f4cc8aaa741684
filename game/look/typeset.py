"""Where a line of prose may break, as a typesetter of Finnish, Russian and English sets it.

Every wrapper (``game.look.ui``: message boxes, toasts, dialogs, settings help, button labels, the
rules page) breaks lines at plain spaces only, and first runs the text through :func:`bind`,
which turns into a no-break space (U+00A0) each space where a line must not break:

- before a dash that stands as a word (``тройка — и``, ``läpi – voitto``): the dash ends the
  line before the break, never starts the next one;
- before a word that begins with a hyphen (Finnish ``Tee uudelleen ‑painike``);
- after a short Russian preposition, conjunction or particle (в, к, с, у, о, и, а, я, на, по,
  со, до, за, из, от, не, ни, но, под, при, для, ...): it goes down with the next word
  (``в Настройках``, ``(в упрощённых``, ``вместе со всем``, ``пока не сделан``);
- inside a game's name (``Seahaven Towers``, ``Russian Solitaire``, ``русский пасьянс`` in
  any case), where the name fits on a line (``fits``): a question never breaks it in two;
- after a number followed by a word, ``%`` or a bracket (``8 карт``, ``4 korttia``,
  ``6,5 %``, ``4 (Helppo)``): a number keeps its unit, in every plural form and whatever
  string it was put into.

Once a paragraph is set, :func:`mend_last_line` keeps its last line from holding one word alone,
and :func:`keep_last_sentence` a short last sentence from being parted at the last break.

The rules live here, once, rather than as no-break spaces in every catalog string, because
most numbers reach a sentence through a placeholder (``{lift}``, ``{size_cards}``) that the
translator cannot reach. A no-break space already in a string stays one. Must not import
pygame (the tests read the rules without a display).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

NBSP: Final = "\u00a0"
SHY: Final = "\u00ad"  # a soft hyphen: never a break here (a button's one word is never split)
DASHES: Final = frozenset({"—", "–"})  # a dash standing as a word in a sentence
HYPHENS: Final = ("-", "\u2011")  # a word that starts with one hangs on the word before
# Russian words of one letter: prepositions (в, к, с, у, о), conjunctions (и, а), "я".
ONE_LETTER: Final = frozenset("вксуоиая")
# Short Russian words a typesetter never leaves at a line's end: prepositions of two and three
# letters (and the compound ones), the conjunction «но», the negations «не» and «ни».
SHORT_WORDS: Final = ONE_LETTER | {
    *("во", "ко", "со", "об", "от", "до", "за", "из", "на", "по", "не", "ни", "но"),
    *("под", "над", "при", "про", "без", "для", "обо", "ото", "изо", "из-за", "из-под"),
}
# The games' names (names.* of every catalog), one line wherever they fit on one: Russian
# declines its name («русского пасьянса»), and writes it in lower case inside a sentence.
GAME_NAMES: Final = re.compile(r"\b(?:Seahaven Towers|Russian Solitaire|[Рр]усск\w+ пасьянс\w*)\b")
OPENERS: Final = "([«„\"'“"
NUMBER: Final = re.compile(r"[+−]?\d+(?:[.,]\d+)?")


def last_word(token: str) -> str:
    """The last word of ``token`` (after any no-break space), without opening brackets or
    quotes: ``(в`` is ``в``."""
    return token.rsplit(NBSP, 1)[-1].lstrip(OPENERS)


def is_short_word(word: str) -> bool:
    """A short Russian preposition, conjunction or particle (SHORT_WORDS), in either case."""
    return word.lower() in SHORT_WORDS


def is_number(word: str) -> bool:
    return NUMBER.fullmatch(word) is not None


def is_unit(word: str) -> bool:
    """What may follow a number as what it counts or names: a word, a percent sign, or a
    gloss in brackets (``4 («Лёгкий»)``, ``4 (Helppo)``)."""
    return bool(word) and (word[0].isalpha() or word[0] in "%(")


def starts_with_dash(word: str) -> bool:
    return word in DASHES or (word.startswith(HYPHENS) and word[1:2].isalpha())


def binds(before: str, word: str) -> bool:
    """Whether the space between ``before`` (a line's text so far) and ``word`` must not break."""
    last = last_word(before)
    return starts_with_dash(word) or is_short_word(last) or (is_number(last) and is_unit(word))


def bind_names(text: str, fits: Callable[[str], bool] | None = None) -> str:
    """``text`` with each game's name (GAME_NAMES) bound by no-break spaces, where ``fits``
    says it fits on a line (every name, without ``fits``)."""

    def joined(match: re.Match[str]) -> str:
        name = match.group(0)
        return name.replace(" ", NBSP) if fits is None or fits(name) else name

    return GAME_NAMES.sub(joined, text)


def splits_a_name(text: str, lines: list[str]) -> bool:
    """Whether ``lines`` (``text`` as set) break one of its games' names in two."""
    shown = [line.replace(NBSP, " ") for line in lines]
    return any(
        not any(match.group(0) in line for line in shown) for match in GAME_NAMES.finditer(text)
    )


def bind(text: str, fits: Callable[[str], bool] | None = None) -> str:
    """``text`` with a no-break space at every space where a line must not break (see the
    module's text; a game's name where ``fits`` says it fits on a line, every one without
    it); newlines and every other space stay as they are. Soft hyphens go: text breaks
    between words only."""
    lines = []
    for line in bind_names(text.replace(SHY, ""), fits).split("\n"):
        words = line.split(" ")
        out = [words[0]]
        for word in words[1:]:
            if out[-1] and word and binds(out[-1], word):
                out[-1] = f"{out[-1]}{NBSP}{word}"
            else:
                out.append(word)
        lines.append(" ".join(out))
    return "\n".join(lines)


def is_lone_word(line: str) -> bool:
    """A line of one word (words bound by a no-break space count as one)."""
    return bool(line) and " " not in line


def mend_last_line(
    lines: list[str], width: int, rewrap: Callable[[int], list[str]], width_of: Callable[[str], int]
) -> list[str]:
    """A paragraph set in ``lines`` (at most ``width`` wide) with no word alone on its last line
    ("…Be the" over "first!"): the word before it comes down when the pair fits and its line
    keeps two words. Where it cannot, the paragraph is set again (``rewrap``) a pixel narrower
    than its widest line but the last, and again, while it takes as many lines, until a
    setting ends in two words or lets the word before come down; else ``lines`` as they are."""
    current = lines
    while len(current) > 1 and is_lone_word(current[-1]):
        head, _, word = current[-2].rpartition(" ")
        pair = f"{word} {current[-1]}"
        if head and not is_lone_word(head) and width_of(pair) <= width:
            return [*current[:-2], head, pair]
        trial = rewrap(max(width_of(line) for line in current[:-1]) - 1)
        if len(trial) != len(lines) or trial == current:
            return lines
        current = trial
    return current


SENTENCE_END: Final = re.compile(r"(?<=[.!?…]) ")  # a space after a sentence's end


def keep_last_sentence(
    para: str,
    lines: list[str],
    width: int,
    set_text: Callable[[str, int], list[str]],
    width_of: Callable[[str], int],
) -> list[str]:
    """A paragraph whose last sentence, short enough for a line, was parted at the last break
    ("…deal yet. Be" over "the first!"): the sentence goes down whole onto the last line
    ("…deal yet." over "Be the first!"), when the text before it (``set_text`` sets it) takes
    one line fewer and does not end in a word alone; else ``lines`` as they are."""
    ends = [m.start() for m in SENTENCE_END.finditer(para)]
    if len(lines) < 2 or not ends:
        return lines
    head, tail = para[: ends[-1]], para[ends[-1] + 1 :]
    split = tail != lines[-1] and tail.endswith(lines[-1]) and " " in tail
    if not split or width_of(tail) > width:
        return lines
    before = set_text(head, width)
    if len(before) != len(lines) - 1 or (len(before) > 1 and is_lone_word(before[-1])):
        return lines
    return [*before, tail]
