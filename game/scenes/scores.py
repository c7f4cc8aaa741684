"""The high scores a player can open (New game → High scores, the win screen's High scores):
today's table and the all-time tables of each rule set (one per level that has wins: a win
ranks within its level), one board at a time (the attract screen's boards), the rule set of the
game on the table first; Previous and Next page through
them. A won game on the table that entered a table opens on that table, its row marked."""

from __future__ import annotations

import pygame
from pygame import Rect

from engine.rules import REGISTRY, RULES_BY_KEY
from game.arcade.highscores import Entry
from game.arcade.levels import ORDER, deal_level
from game.scenes.boards import Board, rule_set_board
from game.scenes.dialog import Dialog

Page = tuple[str, str, str | None]  # rule set, "today" or "all", the all-time table's level


class ScoresScene(Dialog):
    """Today's and the all-time high scores of every rule set, a board at a time: the all-time
    best of each level that has wins (game.arcade.levels: a win ranks within its level)."""

    name = "scores"

    pages: list[Page]  # the table's rule set first
    page = 0
    board: Board | None = None
    mark: Entry | None = None  # the win just entered, marked where it shows
    board_rect = Rect(0, 0, 0, 0)

    def order(self) -> list[Page]:
        """Each rule set's today page, then its all-time pages: a page per level with wins,
        and the level of the game on the table (or, none at all, the rule set's easiest)."""
        keys = [rules.key for rules in REGISTRY.all()]
        game = self.app.table.model.game
        start = keys.index(game.rules.key) if game.rules.key in keys else 0
        pages: list[Page] = []
        for key in keys[start:] + keys[:start]:
            levels = self.app.arcade.scores.levels(key)
            if key == game.rules.key and deal_level(game.code) not in levels:
                levels = sorted({*levels, deal_level(game.code)}, key=ORDER.index)
            easiest = "easy" if REGISTRY.offers_levels(RULES_BY_KEY[key].game) else "winnable"
            pages += [(key, "today", None)] + [(key, "all", lv) for lv in levels or [easiest]]
        return pages

    def marked(self) -> tuple[Entry | None, int]:
        """The entry of the win on the table (the last win, when it entered a table) and the
        page to open on: its day's table when that is today's, else its level's all-time one."""
        won = self.app.arcade.won(self.app.table.model.game)
        if won is None or not won.rank:
            return None, 0
        today = won.entry.day == self.app.arcade.today().isoformat()
        if today and won.rank.today is not None:
            return won.entry, 0
        page = (won.entry.rules_key, "all", deal_level(won.entry.code))
        return won.entry, self.pages.index(page) if page in self.pages else 1

    def build(self) -> None:
        if not hasattr(self, "pages"):  # the first build, from Dialog.__init__
            self.pages = self.order()
            self.mark, self.page = self.marked()
        tr, u = self.tr, self.unit()
        screen = self.app.screen.get_rect()
        self.panel = Rect(screen)
        margin = max(4, int(u * 0.2))
        row_h = int(u)
        row = Rect(0, 0, min(screen.width - 2 * margin, int(u * 12)), row_h)
        row.midbottom = (screen.centerx, screen.bottom - margin)
        labels = [tr("scores.previous"), tr("dialog.close"), tr("scores.next")]
        self.row(row, labels, [self.previous, self.close, self.next], 1)
        area = Rect(margin, margin, screen.width - 2 * margin, row.top - 2 * margin)
        key, showing, level = self.pages[self.page]
        size = self.app.screen.get_size()
        self.board = rule_set_board(  # steady: the same rectangle on every page
            size, tr, self.app.arcade, key, showing, panel=area.size, least=self.least,
            mark=self.mark, steady=True, level=level,
        )  # fmt: skip
        self.board_rect = self.board.image.get_rect(center=area.center)

    def previous(self) -> None:
        self.page = (self.page - 1) % len(self.pages)
        self.rebuild()

    def next(self) -> None:
        self.page = (self.page + 1) % len(self.pages)
        self.rebuild()

    def shown_texts(self) -> list[str]:
        """The board's texts (the scripted player's ``state`` reports them)."""
        return list(self.board.texts) if self.board is not None else []

    def paint(self, screen: pygame.Surface) -> None:
        screen.fill((12, 26, 18), self.panel)
        if self.board is not None:
            screen.blit(self.board.image, self.board_rect)
        for control in self.controls:
            self.paint_control(screen, control)
