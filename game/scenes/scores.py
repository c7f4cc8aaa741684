"""The high scores a player can open (New game → High scores, the win screen's High scores):
today's table and the all-time tables of each rule set (one per level that has wins: a win
ranks within its level), one board at a time (the attract screen's boards), the rule set of the
game on the table first; Previous and Next page through
them. A won game on the table that entered a table opens on that table, its row marked.

With a venue (game.arcade.venue: ``[venue]`` in the config) two tabs above the board choose
This kiosk's tables or the Whole venue's (the kiosk of each row named, the venue's name over the
table); the page (rule set, today or all time, level) stays where the other side has it."""

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
    venue = False  # the Whole venue's tables shown (the app has a venue), else This kiosk's
    seen = -1  # the venue's board as the page shown read it (VenueBoard.changes)

    def order(self) -> list[Page]:
        """Each rule set's today page, then its all-time pages: a page per level with wins,
        and the level of the game on the table (or, none at all, the rule set's easiest)."""
        keys = [rules.key for rules in REGISTRY.all()]
        game = self.app.table.model.game
        start = keys.index(game.rules.key) if game.rules.key in keys else 0
        pages: list[Page] = []
        for key in keys[start:] + keys[:start]:
            levels = self.levels(key)
            if key == game.rules.key and deal_level(game.code) not in levels:
                levels = sorted({*levels, deal_level(game.code)}, key=ORDER.index)
            easiest = "easy" if REGISTRY.offers_levels(RULES_BY_KEY[key].game) else "winnable"
            pages += [(key, "today", None)] + [(key, "all", lv) for lv in levels or [easiest]]
        return pages

    def levels(self, rules_key: str) -> list[str]:
        """The levels with wins in the all-time tables shown (this kiosk's or the venue's)."""
        board = self.app.arcade.venue
        if self.venue and board is not None:
            return board.levels(rules_key)
        return self.app.arcade.scores.levels(rules_key)

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
        venue = self.app.arcade.venue is not None  # This kiosk | Whole venue: two tabs
        wide = venue and screen.width > screen.height  # beside the buttons, not over the board
        row = Rect(0, 0, min(screen.width - 2 * margin, int(u * (20 if wide else 12))), row_h)
        row.midbottom = (screen.centerx, screen.bottom - margin)
        tabs = Rect(0, 0, min(screen.width - 2 * margin, int(u * 10)), row_h)
        if wide:
            tabs.width = int(row.width * 0.4)
            tabs.topleft = row.topleft
            row.width, row.right = row.width - tabs.width - int(u * 0.5), row.right
        labels = [tr("scores.previous"), tr("dialog.close"), tr("scores.next")]
        self.row(row, labels, [self.previous, self.close, self.next], 1)
        area = Rect(margin, margin, screen.width - 2 * margin, row.top - 2 * margin)
        if venue and not wide:  # the tabs just over the board, the two centred as one
            area.top += tabs.height + margin
            area.height -= tabs.height + margin
        key, showing, level = self.pages[self.page]
        size = self.app.screen.get_size()
        self.board = rule_set_board(  # steady: the same rectangle on every page
            size, tr, self.app.arcade, key, showing, panel=area.size, least=self.least,
            mark=self.mark, steady=True, level=level, venue=self.venue,
        )  # fmt: skip
        self.board_rect = self.board.image.get_rect(center=area.center)
        self.seen = self.app.arcade.venue.changes if self.app.arcade.venue is not None else -1
        if venue:
            if not wide:
                tabs.midbottom = (screen.centerx, self.board_rect.top - margin)
            labels = [tr("scores.this_kiosk"), tr("scores.whole_venue")]
            self.row(tabs, labels, [self.this_kiosk, self.whole_venue], int(self.venue))

    def update(self, dt: float) -> None:
        """Another kiosk's table came while the venue's page shows: the page shows it."""
        board = self.app.arcade.venue
        if self.venue and board is not None and board.changes != self.seen:
            self.repage()  # a level may have come with its first win

    def this_kiosk(self) -> None:
        self.show_venue(False)

    def whole_venue(self) -> None:
        self.show_venue(True)

    def show_venue(self, venue: bool) -> None:
        """This kiosk's tables or the whole venue's, on the same page where the other side has
        it (else on that rule set's today page)."""
        if venue == self.venue or self.app.arcade.venue is None:
            return
        self.venue = venue
        self.repage()

    def repage(self) -> None:
        """The pages anew (this kiosk's or the venue's levels), on the page shown when it is
        still one, else on its rule set's today page."""
        page = self.pages[self.page]
        self.pages = self.order()
        self.page = self.pages.index(page if page in self.pages else (page[0], "today", None))
        self.rebuild()

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
