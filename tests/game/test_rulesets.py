"""One registry of rule sets (engine.rules.ALL_RULES): the new-game menu, the game choice,
the deal factory and the statistics read it, so a rule set added in data only (the
``seahaven_3`` fixture of conftest.py) shows up everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game
from engine.rules import REGISTRY, Rules
from game import rulesets
from game.config import GameConfig, config_from_dict
from game.config_rules import current_rules
from game.games import GameChoice
from game.i18n import Translator
from game.launch import open_run
from game.saves.stats import Stats, rule_set_key
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def labels(app: object) -> list[str]:
    return [c.label for c in app.scenes.top.controls]  # type: ignore[attr-defined]


def test_todays_menu_rows_come_from_the_registry() -> None:
    app = make_app("SH1-C2-AAAAAJ2")
    finger = Finger(app)
    finger.tap(finger.button("new"))
    shown = labels(app)
    assert shown[shown.index("Free cells") + 1 :][:3] == ["4 (Easy)", "2 (Medium)", "1 (Hard)"]
    assert [rules.key for rules in REGISTRY.all()] == [
        "RU1-C",
        "RU1-R",
        "SH1-C4",
        "SH1-C2",
        "SH1-C1",
    ]


def test_a_rule_set_added_in_data_is_in_the_new_game_menu(seahaven_3: Rules) -> None:
    app = make_app("SH1-C4-AAAAAJ2")
    finger = Finger(app)
    finger.tap(finger.button("new"))
    assert "3 (Medium+)" in labels(app)
    finger.tap(finger.control("3 (Medium+)"))
    finger.settle()
    finger.tap(finger.control("Deal"))
    table = app.table
    assert app.scenes.top is table
    assert table.model.game.code.startswith("SH1-C3-") and table.model.game.rules.cells == 3
    assert len(table.model.layout.cells) == 3  # the table lays out three free cells
    finger.tap(finger.button("new"))  # the menu opens on the rule set being played
    assert "3 (Medium+)" in labels(app)
    assert rule_set_key(table.model.game.code) == "SH1-C3"


def test_a_rule_set_added_in_data_is_on_the_statistics_screen(
    seahaven_3: Rules, tmp_path: Path
) -> None:
    config, _ = config_from_dict({"kiosk": {"lock": False}})
    run = open_run(config, tmp_path, crash_hook=False)
    app = make_app("SH1-C3-AAAAAJ2", size=(1280, 800), run=run)
    finger = Finger(app)
    game = app.table.model.game
    move = next(m for m in game.legal_moves() if not game.is_pointless(m))
    app.table.model.make_move(move)
    finger.settle()
    app.table.start_game(Game.from_code("RU1-C-AAAAABB"))  # the SH1-C3 game is abandoned
    assert run.session.stats["SH1-C3"].played == 1
    assert "SH1-C3" in Stats.from_dict(run.session.stats.to_dict()).to_dict()  # saved and read
    finger.tap(finger.button("settings"))
    finger.tap(finger.control("Statistics"))
    shown = labels(app)
    title = shown.index("Seahaven Towers, 3 free cells")
    assert shown[title + 1] == "Played 1 · Won 0\u00a0%"
    assert len(app.scenes.top.cards) == 6  # type: ignore[attr-defined]


def test_a_rule_set_added_in_data_passes_config_validation(seahaven_3: Rules) -> None:
    """Before the rule set is added, `seahaven_cells = 3` is refused with a message that lists
    the registry's cell counts; with it (one replace() in the registry), it is accepted."""
    config, problems = config_from_dict({"game": {"seahaven_cells": 3}})
    assert not problems and config.game.seahaven_cells == 3
    config, problems = config_from_dict({"game": {"seahaven_cells": 5}})
    assert problems == ["game.seahaven_cells = 5: expected one of 4, 2, 1, 3; using the default 4"]


def test_without_the_added_rule_set_three_cells_are_refused() -> None:
    config, problems = config_from_dict({"game": {"seahaven_cells": 3}})
    assert len(problems) == 1 and "one of 4, 2, 1;" in problems[0]
    assert config.game.seahaven_cells == 4


def test_each_games_config_key_and_defaults_come_from_the_registry() -> None:
    """engine.rules.GAMES names each game's config key: [game] accepts exactly those, and the
    defaults of config.toml's [game] section are the registry's first game and, per game, its
    first rule set."""
    accepted = current_rules()["game"]
    defaults = GameConfig()
    assert defaults.default_game == REGISTRY.first_game() == "russian"
    for info in REGISTRY.game_infos():
        assert info.option_key in accepted
        assert getattr(defaults, info.option_key) == REGISTRY.of_game(info.name)[0].option
    options = {i.option_key: getattr(defaults, i.option_key) for i in REGISTRY.game_infos()}
    assert options == {"russian_rules": "classic", "seahaven_cells": 4}
    choice = GameChoice.from_options(
        game="seahaven", options={"russian_rules": "relaxed", "seahaven_cells": 2}
    )
    assert choice.rules.key == "SH1-C2" and choice.variants["russian"] == "RU1-R"


def test_a_rule_set_added_in_data_is_chosen_by_config_and_titled(seahaven_3: Rules) -> None:
    choice = GameChoice.from_options(game="seahaven", options={"seahaven_cells": 3})
    assert choice.rules.key == "SH1-C3"
    tr = Translator("en")
    assert rulesets.title_lines(tr, seahaven_3) == ("Seahaven Towers", "3 free cells")
    assert rulesets.title_lines(tr, REGISTRY.all()[1]) == ("Russian Solitaire", "Mixed suits")
