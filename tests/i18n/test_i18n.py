"""The Translator: lookups, plurals, fallback, card names and refusal sentences."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine import CodeError, Game, IllegalMove
from game.i18n import LOCALES, Translator, plural_category

pytestmark = pytest.mark.unit


@pytest.fixture(params=LOCALES)
def tr(request: pytest.FixtureRequest) -> Translator:
    return Translator(request.param)


class TestPlurals:
    @pytest.mark.parametrize(
        ("count", "category", "text"),
        [
            (1, "one", "1 карта"),
            (2, "few", "2 карты"),
            (5, "many", "5 карт"),
            (11, "many", "11 карт"),
            (12, "many", "12 карт"),
            (21, "one", "21 карта"),
            (22, "few", "22 карты"),
            (25, "many", "25 карт"),
            (0, "many", "0 карт"),
            (111, "many", "111 карт"),
            (104, "few", "104 карты"),
        ],
    )
    def test_russian(self, count: int, category: str, text: str) -> None:
        assert plural_category("ru", count) == category
        assert Translator("ru")("unit.cards", count=count) == text

    @pytest.mark.parametrize(
        ("count", "text"), [(1, "1 kortti"), (2, "2 korttia"), (0, "0 korttia"), (21, "21 korttia")]
    )
    def test_finnish_partitive_after_numbers(self, count: int, text: str) -> None:
        assert Translator("fi")("unit.cards", count=count) == text

    def test_english(self) -> None:
        tr = Translator("en")
        assert tr("unit.cards", count=1) == "1 card"
        assert tr("unit.cards", count=2) == "2 cards"

    @pytest.mark.parametrize(
        ("count", "text"),
        [
            (1, "до 1 хода"),
            (2, "до 2 ходов"),
            (5, "до 5 ходов"),
            (11, "до 11 ходов"),
            (21, "до 21 хода"),
            (22, "до 22 ходов"),
            (25, "до 25 ходов"),
            (101, "до 101 хода"),
        ],
    )
    def test_russian_undo_depth_takes_the_genitive_after_do(self, count: int, text: str) -> None:
        """«до» governs the genitive: «до 21 хода» (one), «до 22 ходов» (few), «до 25 ходов»,
        never the nominative «последние 22 хода» or «последний 21 ход»."""
        assert Translator("ru")("table.rules_undo", count=count) == (
            f"Отменить и повторить можно {text}"
        )

    def test_no_count_or_not_a_number_uses_other(self) -> None:
        tr = Translator("ru")
        assert tr("unit.cards") == "{count} карты"
        assert plural_category("ru", "5") == "other"
        assert plural_category("ru", True) == "other"


class TestLocaleSwitch:
    def test_starts_in_the_asked_locale(self) -> None:
        assert Translator("fi").locale == "fi"
        assert Translator("fi")("names.hard") == "Vaikea"

    def test_unknown_locale_falls_back_to_english_with_a_warning(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        with caplog.at_level(logging.WARNING):
            tr = Translator("de")
        assert tr.locale == "en"
        assert tr("names.hard") == "Hard"
        assert "de" in caplog.text

    def test_switch_at_once(self) -> None:
        tr = Translator("fi")
        assert tr.set_locale("ru") is True
        assert tr.locale == "ru"
        assert tr("names.hard") == "Сложный"
        assert tr.card("QS") == "Д♠"

    @pytest.mark.parametrize("bad", ["xx", "", None, 3, "fi_FI"])
    def test_bad_value_keeps_the_locale(self, bad: object) -> None:
        tr = Translator("ru")
        assert tr.set_locale(bad) is False
        assert tr.locale == "ru"
        assert tr("names.hard") == "Сложный"

    def test_case_and_spaces_are_forgiven(self) -> None:
        tr = Translator("en")
        assert tr.set_locale(" FI ") is True
        assert tr.locale == "fi"


class TestFallback:
    @pytest.fixture
    def catalogs(self, tmp_path: Path) -> Path:
        (tmp_path / "en.toml").write_text(
            '[menu]\nnew_game = "New game"\nquit = "Quit"\n'
            '[info]\nmoves = { one = "{count} move", other = "{count} moves" }\n',
            encoding="utf-8",
        )
        (tmp_path / "fi.toml").write_text('[menu]\nnew_game = "Uusi peli"\n', encoding="utf-8")
        (tmp_path / "ru.toml").write_text("this is [not toml", encoding="utf-8")
        return tmp_path

    def test_missing_key_falls_back_to_english(self, catalogs: Path) -> None:
        tr = Translator("fi", directory=catalogs)
        assert tr("menu.new_game") == "Uusi peli"
        assert tr("menu.quit") == "Quit"
        assert tr("info.moves", count=3) == "3 moves"

    def test_broken_file_falls_back_to_english(
        self, catalogs: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        with caplog.at_level(logging.ERROR):
            tr = Translator("ru", directory=catalogs)
        assert tr("menu.new_game") == "New game"
        assert "ru.toml" in caplog.text

    def test_missing_everywhere_returns_the_key_and_logs_once(
        self, catalogs: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        tr = Translator("fi", directory=catalogs)
        with caplog.at_level(logging.WARNING):
            assert tr("menu.nothing") == "menu.nothing"
            assert tr("menu.nothing") == "menu.nothing"
        assert caplog.text.count("menu.nothing") == 1

    def test_a_section_is_not_a_string(self, catalogs: Path) -> None:
        assert Translator("en", directory=catalogs)("menu") == "menu"

    def test_missing_or_broken_placeholders_never_raise(self) -> None:
        tr = Translator("en")
        assert tr("dest.column") == "column {number}"
        assert tr("dest.column", number=3, extra="x") == "column 3"


class TestCards:
    @pytest.mark.parametrize(
        ("locale", "name", "short", "long"),
        [
            ("en", "7H", "7♥", "7 of hearts"),
            ("en", "TS", "10♠", "10 of spades"),
            ("en", "QC", "Q♣", "queen of clubs"),
            ("fi", "7H", "7♥", "hertta 7"),
            ("fi", "KS", "K♠", "patakuningas"),
            ("fi", "AD", "A♦", "ruutuässä"),
            ("fi", "JC", "J♣", "ristijätkä"),
            ("ru", "7H", "7♥", "семёрка червей"),
            ("ru", "QS", "Д♠", "дама пик"),
            ("ru", "AD", "Т♦", "туз бубён"),
            ("ru", "JC", "В♣", "валет треф"),
            ("ru", "KH", "К♥", "король червей"),
            ("ru", "10D", "10♦", "десятка бубён"),
        ],
    )
    def test_names(self, locale: str, name: str, short: str, long: str) -> None:
        tr = Translator(locale)
        assert tr.card(name) == short
        assert tr.card(name.lower()) == short
        assert tr.card_long(name) == long

    def test_every_card_has_a_distinct_name(self, tr: Translator) -> None:
        names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
        assert len({tr.card(n) for n in names}) == 52
        assert len({tr.card_long(n) for n in names}) == 52

    def test_not_a_card_comes_back_unchanged(self, tr: Translator) -> None:
        assert tr.card("ZZ") == "ZZ"
        assert tr.card_long("1X") == "1X"

    @pytest.mark.parametrize(
        ("locale", "words"),
        [
            ("en", ("column 5", "foundation", "free cell 2")),
            ("fi", ("sarake 5", "peruspino", "apuruutu 2")),
            ("ru", ("столбец 5", "дом", "ячейка 2")),
        ],
    )
    def test_destinations(self, locale: str, words: tuple[str, str, str]) -> None:
        tr = Translator(locale)
        assert (tr.dest("t5"), tr.dest("f"), tr.dest("c2")) == words
        assert tr.dest("x9") == "x9"


def refusal_of(code: str, *moves: str) -> IllegalMove:
    game = Game.from_code(code)
    *before, last = moves
    for move in before:
        game.play(move)
    with pytest.raises(IllegalMove) as caught:
        game.play(last)
    return caught.value


class TestRefusals:
    def test_wrong_rank_from_the_engine(self) -> None:
        # Deal 33: column 7 ends KH QH 8D JH 2C; 4C sits alone in column 1.
        error = refusal_of("RU1-C-AAAAABB", "4C-t7")
        assert error.reason == "wrong_rank"
        assert Translator("ru").refusal(error) == (
            "На 2♣ можно положить только туза — карту на единицу младше."
        )

    def test_wrong_suit_names_the_card_that_fits(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        suit_error = next(
            e
            for m in (f"{c}-t7" for c in ("AH", "AS", "AD"))
            if (e := game.check(m)) is not None and e.reason == "wrong_suit"
        )
        assert (suit_error.params["target"], suit_error.params["fits"]) == ("2C", "AC")
        fi = Translator("fi").refusal(suit_error)
        assert "samasta perheestä" in fi and "A♣" in fi and "2♣" in fi
        ru = Translator("ru").refusal(suit_error)
        assert "в масть" in ru and "той же масти" in ru and "Т♣" in ru
        assert "A♣" in Translator("en").refusal(suit_error)

    def test_wrong_rank_asks_for_the_rank_in_the_right_case(self) -> None:
        error = IllegalMove("wrong_rank", card="5H", target="8H", rank="7")
        assert Translator("ru").refusal(error) == (
            "На 8♥ можно положить только семёрку — карту на единицу младше."
        )
        assert "käy vain yhtä arvoa pienempi: 7" in Translator("fi").refusal(error)
        assert "Only a 7 goes on 8♥" in Translator("en").refusal(error)

    def test_numbers_get_their_plural(self) -> None:
        error = IllegalMove("run_too_long", card="9C", size=5, limit=1)
        assert "(5 карт)" in Translator("ru").refusal(error)
        assert "1 карта" in Translator("ru").refusal(error)
        assert "(5 korttia)" in Translator("fi").refusal(error)
        assert "1 kortti." in Translator("fi").refusal(error)
        code = CodeError("m", "code_bad_length", number="AB", length=2)
        assert "2 символа" in Translator("ru").refusal(code)
        assert "2 merkkiä" in Translator("fi").refusal(code)

    def test_a_true_flag_picks_the_variant_sentence(self) -> None:
        plain = IllegalMove("king_only", card="QH", reveals=False)
        reveals = IllegalMove("king_only", card="QH", reveals=True)
        tr = Translator("fi")
        assert "piilokortin" not in tr.refusal(plain)
        assert "piilokortin" in tr.refusal(reveals)

    def test_destinations_in_refusals(self) -> None:
        error = IllegalMove("cell_taken", cell="c2", occupant="QC")
        assert Translator("en").refusal(error).startswith("Free cell 2 is taken by Q♣")
        assert Translator("ru").refusal(error).startswith("Ячейка 2 занята картой Д♣")

    def test_a_real_bad_code(self, tr: Translator) -> None:
        with pytest.raises(CodeError) as caught:
            Game.from_code("RU1-C-AAAA1BB")
        text = tr.refusal(caught.value)
        assert "1" in text and "AAAA1BB" in text and "{" not in text

    def test_anything_else_is_shown_as_its_message(self, tr: Translator) -> None:
        assert tr.refusal(ValueError("plain")) == "plain"
