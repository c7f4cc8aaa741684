"""Deals and game codes: the golden values of docs/codes.md, and every way to mistype a code."""

from __future__ import annotations

import pytest

from engine import CodeError, Game, format_code, parse_code
from engine.cards import card_name
from engine.codes import format_number
from engine.deal import shuffled_deck, splitmix64
from engine.rules import ALL_RULES, RULES_BY_KEY

pytestmark = pytest.mark.unit


class TestGoldenDeals:
    def test_deal_0_shuffles_to_the_spec_prefix(self) -> None:
        deck = [card_name(c) for c in shuffled_deck(0)]
        assert deck[:8] == ["8C", "JD", "9S", "2C", "2H", "QH", "6C", "TS"]
        assert sorted(shuffled_deck(0)) == list(range(52))

    def test_russian_deal_33(self) -> None:
        columns = Game.from_code("RU1-C-AAAAABB").to_dict()["columns"]
        assert columns[0] == ["4C"]
        assert columns[6] == [
            "#KD",
            "#7H",
            "#KS",
            "#6C",
            "#5C",
            "#3S",
            "KH",
            "QH",
            "8D",
            "JH",
            "2C",
        ]

    def test_russian_deal_shape(self) -> None:
        data = Game.from_code("RU1-R-AAAAABB").to_dict()
        sizes = [len(c) for c in data["columns"]]
        hidden = [sum(t.startswith("#") for t in c) for c in data["columns"]]
        assert sizes == [1, 6, 7, 8, 9, 10, 11]
        assert hidden == [0, 1, 2, 3, 4, 5, 6]
        assert sum(hidden) == 21 and sum(sizes) - sum(hidden) == 31
        assert data["cells"] == [] and data["foundations"] == [0, 0, 0, 0]

    def test_seahaven_deal_314_four_cells(self) -> None:
        data = Game.from_code("SH1-C4-AAAAAJ2").to_dict()
        assert data["columns"][0] == ["KD", "AH", "KH", "2H", "6C"]
        assert data["columns"][9] == ["3H", "7D", "8D", "TC", "6H"]
        assert data["cells"] == ["3C", "4H", None, None]

    def test_seahaven_deal_314_two_cells_fills_both(self) -> None:
        data = Game.from_code("SH1-C2-AAAAAJ2").to_dict()
        assert data["cells"] == ["3C", "4H"]
        assert all(len(c) == 5 for c in data["columns"])

    def test_seahaven_deal_314_one_cell_puts_the_last_card_on_column_2(self) -> None:
        data = Game.from_code("SH1-C1-AAAAAJ2").to_dict()
        assert data["cells"] == ["3C"]
        assert data["columns"][1] == ["QS", "AS", "QH", "KS", "TH", "4H"]

    def test_same_number_same_shuffle_under_every_rule_set(self) -> None:
        tops = {r.key: Game(r, 314).to_dict()["columns"][0][0] for r in ALL_RULES}
        russian = {tops["RU1-C"], tops["RU1-R"]}
        seahaven = {tops["SH1-C4"], tops["SH1-C2"], tops["SH1-C1"]}
        assert len(russian) == 1 and len(seahaven) == 1
        assert russian == seahaven  # both take deck[0] first

    def test_splitmix64_reference_stream(self) -> None:
        # SplitMix64 seeded with 0: the well-known first output of the reference C code.
        assert next(splitmix64(0)) == 0xE220A8397B1DCDAF


class TestCodes:
    def test_examples_of_the_spec(self) -> None:
        assert parse_code("RU1-C-AAAAABB") == (RULES_BY_KEY["RU1-C"], 33)
        assert parse_code("SH1-C4-AAAAAJ2") == (RULES_BY_KEY["SH1-C4"], 314)
        assert format_code(RULES_BY_KEY["RU1-C"], 33) == "RU1-C-AAAAABB"

    def test_case_and_spaces_are_forgiven_and_output_is_upper_case(self) -> None:
        assert Game.from_code("  sh1-c1-aaaaaj2 \n").code == "SH1-C1-AAAAAJ2"

    @pytest.mark.parametrize("number", [0, 1, 31, 32, 33, 314, 2**20 + 7, 2**35 - 1])
    def test_round_trip(self, number: int) -> None:
        for rules in ALL_RULES:
            assert parse_code(format_code(rules, number)) == (rules, number)

    def test_largest_number_is_all_sevens(self) -> None:
        assert format_number(2**35 - 1) == "7777777"
        with pytest.raises(ValueError):
            format_number(2**35)

    @pytest.mark.parametrize(
        ("code", "reason", "words"),
        [
            ("", "code_empty", "empty"),
            ("   ", "code_empty", "empty"),
            ("XX1-C-AAAAABB", "code_unknown_game", "unknown game"),
            ("RU2-C-AAAAABB", "code_unknown_version", "version"),
            ("SH9-C4-AAAAABB", "code_unknown_version", "version"),
            ("RU1-X-AAAAABB", "code_unknown_rules", "'X' is not a rule set"),
            ("RU1-C4-AAAAABB", "code_unknown_rules", "rule set"),
            ("SH1-C3-AAAAABB", "code_unknown_rules", "C4, C2, C1"),
            ("SH1-C-AAAAABB", "code_unknown_rules", "rule set"),
            ("RU1-C-AAAAAB", "code_bad_length", "needs 7"),
            ("RU1-C-AAAAABBB", "code_bad_length", "has 8 characters"),
            ("RU1-C-AAAAAB1", "code_bad_letter", "'1'"),
            ("RU1-C-AAAA0BB", "code_bad_letter", "'0'"),
            ("RU1-C-AAAAAB8", "code_bad_letter", "'8'"),
            ("RU1-C-AAAAÄBB", "code_bad_letter", "'Ä'"),
            ("RU1CAAAAABB", "code_bad_shape", "not a game code"),
            ("RU1-C-AAA-ABB", "code_bad_shape", "not a game code"),
            ("x" * 10_000, "code_too_long", "10000 characters"),
        ],
    )
    def test_bad_codes_say_what_is_wrong(self, code: str, reason: str, words: str) -> None:
        with pytest.raises(CodeError) as caught:
            Game.from_code(code)
        assert caught.value.reason == reason
        assert words in str(caught.value)

    @pytest.mark.parametrize("value", [None, 33, b"RU1-C-AAAAABB", ["RU1-C-AAAAABB"]])
    def test_non_text_is_refused(self, value: object) -> None:
        with pytest.raises(CodeError) as caught:
            parse_code(value)
        assert caught.value.reason == "code_not_text"
        assert isinstance(caught.value, ValueError)
