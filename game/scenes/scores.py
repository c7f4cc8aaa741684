"""The high scores a player can open (New game → High scores, the win screen's High scores):
today's table and the all-time table of each rule set, one board at a time (the attract
screen's boards), the rule set of the game on the table first; Previous and Next page through
them. A won game on the table that entered a table opens on that table, its row marked."""

from __future__ import annotations

import pygame
from pygame import Rect

from engine.rules import REGISTRY
from game.arcade.highscores import Entry
from game.scenes.boards import Board, rule_set_board
from game.scenes.dialog import Dialog

SHOWING = ("today", "all")


class ScoresScene(Dialog):
    """Today's and the all-time high scores of every rule set, a board at a time."""

    name = "scores"

    pages: list[tuple[str, str]]  # (rule set, "today" or "all"), the table's rule set first
    page = 0
    board: Board | None = None
    mark: Entry | None = None  # the win just entered, marked where it shows
    board_rect = Rect(0, 0, 0, 0)

    def order(self) -> list[tuple[str, str]]:
        keys = [rules.key for rules in REGISTRY.all()]
        first = self.app.table.game.rules.key
        start = keys.index(first) if first in keys else 0
        return [(key, showing) for key in keys[start:] + keys[:start] for showing in SHOWING]

    def marked(self) -> tuple[Entry | None, int]:
        """The entry of the win on the table (the last win, when it entered a table) and the
        page to open on: its day's table when that is today's, else the all-time one."""
        won = self.app.arcade.won(self.app.table.game)
        if won is None or not won.rank:
            return None, 0
        today = won.entry.day == self.app.arcade.today().isoformat()
        return won.entry, 0 if today and won.rank.today is not None else 1

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
        key, showing = self.pages[self.page]
        size = self.app.screen.get_size()
        self.board = rule_set_board(  # steady: the same rectangle on every page
            size, tr, self.app.arcade, key, showing, panel=area.size, least=self.least,
            mark=self.mark, steady=True,
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
