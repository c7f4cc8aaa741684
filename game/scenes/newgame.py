"""The new-game dialog: game, rules or free cells, level, a game code, today's deal, the high
scores, deal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from engine.rules import REGISTRY
from game import rulesets
from game.config_rules import LEVELS
from game.look import grid, ui
from game.look.fonts import font
from game.look.ui import Control
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost


class NewGameScene(Dialog):
    """Game, rules or free cells, level (when the deal catalog has deals), a game code, deal."""

    name = "newgame"

    def __init__(self, app: AppHost) -> None:
        self.choice = app.games.choice_for(app.table.model.game)  # its rule set and level
        super().__init__(app)

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        c = self.choice
        w, h = self.app.screen.get_size()
        portrait = h > w
        Choice = tuple[str, list[str], list[Callable[[], None]], int]
        games = REGISTRY.games()
        choices: list[Choice] = [
            (
                tr("newgame.game"),
                [rulesets.game_name(tr, game) for game in games],
                [partial(self.pick, game=game) for game in games],
                games.index(c.game) if c.game in games else 0,
            )
        ]
        variants = REGISTRY.of_game(c.game)
        if len(variants) > 1:
            chosen = c.rules
            choices.append(
                (
                    rulesets.variant_title(tr, c.game),
                    [rulesets.variant_name(tr, rules) for rules in variants],
                    [partial(self.pick, rules=rules.key) for rules in variants],
                    variants.index(chosen) if chosen in variants else 0,
                )
            )
        level_row = REGISTRY.offers_levels(c.game) and self.app.games.has_levels(c.rules_key())
        if level_row:
            choices.append(
                (
                    tr("newgame.level"),
                    [tr(f"names.{n}") for n in LEVELS],
                    [partial(self.pick, level=n) for n in LEVELS],
                    LEVELS.index(c.level) if c.level in LEVELS else len(LEVELS) - 1,
                )
            )
        row_h = int(u)
        gap = int(u * 0.3)
        # Portrait: each label above its buttons, which get the panel's whole width.
        label_h = int(u * 0.55) if portrait else 0
        title_h = int(u * 0.9)
        # As many choice rows as the game with the most has: the panel and every button keep
        # their place whichever game is chosen (a game with fewer leaves a row of felt).
        most = max(len(choices), *(self.choice_rows(game) for game in games))
        pad = int(u * 0.35)
        note_size, note_h = self.level_note_room(u, pad, portrait, games)
        aside = self.app.kiosk.aside if self.app.kiosk is not None else None
        extra = [row_h] * (2 + (aside is not None))
        heights = [title_h] + [label_h + row_h] * most + [note_h] * bool(note_h) + extra
        self.panel = self.panel_rect(max_w=u * 12, max_h=grid.extent(heights, gap) + u)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        need = 2 * pad + grid.extent(heights, gap)
        if need < self.panel.height:
            self.fit_panel(need)
            inner = self.panel.inflate(-2 * pad, -2 * pad)
        else:  # the rows spread over the panel
            rows = len(heights) - 1
            gap += int((inner.height - grid.extent(heights, gap)) / rows)
        title, *lines = grid.rows(inner, heights, gap)
        self.add(Control(title, tr("newgame.title"), kind="title", size=int(u * 0.5)))
        # Landscape: the labels in a column at the left; portrait: each label above its buttons,
        # which get the panel's whole width.
        label_w = 0 if portrait else int(inner.width * 0.24)
        for line, (label, labels, actions, selected) in zip(lines, choices, strict=False):
            if portrait:
                label_rect, buttons = grid.rows(line, [label_h, row_h])
                label_rect = grid.columns(label_rect, [4, grid.Fill()])[1]  # a little in
            else:
                label_rect, buttons = grid.columns(line, [label_w, grid.Fill()])
            self.add(Control(label_rect, label, kind="label"))
            self.row(buttons, labels, actions, selected)
        if note_h and level_row:
            note = tr("newgame.level_note_any" if c.level == "any" else "newgame.level_note")
            box = grid.columns(lines[most], [label_w, grid.Fill()])[1]
            self.add(Control(box, note, kind="text", size=note_size, name="level_note"))
        if aside is not None and self.app.kiosk is not None:  # left idle: it may come back
            moves = tr("table.moves", count=aside.game.moves)
            label = tr("newgame.resume_aside", moves=moves)
            self.row(lines[-3], [label], [self.resume_aside])
        self.row(
            lines[-2],
            [tr("newgame.code"), tr("newgame.replay"), tr("arcade.daily_button")],
            [self.open_keypad, self.replay, self.today],
        )
        self.row(
            lines[-1],
            [tr("dialog.cancel"), tr("scores.button"), tr("newgame.deal")],
            [self.close, self.scores, self.deal],
            2,
        )

    def level_note_room(
        self, u: float, pad: int, portrait: bool, games: Sequence[str]
    ) -> tuple[int, int]:
        """The text size and height of the line under the levels, what the level chosen
        promises: "Any" may not be winnable (issue 38 item 3). Its room is kept for every game,
        as the choice rows are; none where no game has levels."""
        tr = self.tr
        note_size = max(self.least, int(u * 0.3))
        note_w = self.panel_rect(max_w=u * 12).width - 2 * pad
        note_w -= 0 if portrait else int(note_w * 0.24) + 1  # beside the labels' column
        notes = [tr("newgame.level_note"), tr("newgame.level_note_any")]
        note_lines = max(len(ui.wrap(note, note_w, note_size)) for note in notes)
        note_h = note_lines * font(note_size).get_linesize() if any(map(self.levels, games)) else 0
        return note_size, note_h

    def choice_rows(self, game: str) -> int:
        """How many rows of choices ``game`` has: the game, its rule sets, its level."""
        return 1 + (len(REGISTRY.of_game(game)) > 1) + self.levels(game)

    def levels(self, game: str) -> bool:
        """Whether ``game`` offers levels here (a catalog of deals for one of its rule sets)."""
        rules_keys = [rules.key for rules in REGISTRY.of_game(game)]
        return REGISTRY.offers_levels(game) and any(map(self.app.games.has_levels, rules_keys))

    def pick(self, *, game: str = "", rules: str = "", level: str = "") -> None:
        """The player chose a game, a rule set of it, or a level."""
        if game:
            self.choice.game = game
        if rules:
            self.choice.variants[self.choice.game] = rules
        if level:
            self.choice.level = level
        self.rebuild()

    def scores(self) -> None:
        """The high-score tables of every rule set (the scores screen)."""
        self.app.scenes.open("scores")

    def open_keypad(self) -> None:
        self.app.scenes.open("keypad", text=self.choice.rules_key() + "-")

    def replay(self) -> None:
        table = self.app.table
        table.replace_game(lambda: self.app.games.replay(table.model.game))

    def today(self) -> None:
        """Today's deal of the chosen rule set: the same on every kiosk today."""
        self.app.games.choice = self.choice
        code = self.app.arcade.code_of_day(self.choice.rules_key())
        self.app.table.replace_game(lambda: self.app.games.new(code))

    def resume_aside(self) -> None:
        """The game an unlocked idle deal replaced, back on the table (game.kiosk)."""
        if self.app.kiosk is not None:
            self.app.kiosk.resume_aside()

    def deal(self) -> None:
        self.app.games.choice = self.choice
        self.app.table.replace_game(self.app.games.new)
