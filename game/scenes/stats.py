"""The statistics screen: games played and won per rule set, best time and score, streaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.clock import format_clock
from game.look import ui
from game.look.ui import Control
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    pass
from engine.rules import REGISTRY, Rules
from game import rulesets
from game.saves.stats import RuleSetStats


class StatsScene(Dialog):
    """Games played and won per game and rule set, best time and score, win streaks."""

    name = "stats"

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        w, h = self.app.screen.get_size()
        session = self.app.session  # a saved run's: a desktop's as a kiosk's
        stats = session.stats if session is not None else None
        portrait = h > w
        self.panel = self.panel_rect(max_w=u * 18, max_h=u * 13)
        pad = int(u * 0.35)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        gap = max(6, int(u * 0.2))
        title_h = int(u * 0.8)
        button_h = int(u * 0.9)
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, title_h),
                tr("stats.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        # Wide: a column per game (its rule sets below each other); narrow: one column.
        games = REGISTRY.games()
        wide = not portrait and inner.width >= u * 9 and len(games) > 1
        cells: list[tuple[Rules, int, int]] = []
        for c, game in enumerate(games):
            for r, rules in enumerate(REGISTRY.of_game(game)):
                cells.append((rules, r, c) if wide else (rules, len(cells), 0))
        cols = len(games) if wide else 1
        rows = max(r for _, r, _ in cells) + 1
        area = Rect(
            inner.left,
            inner.top + title_h + gap,
            inner.width,
            inner.height - title_h - button_h - 2 * gap,
        )
        card_w = (area.width - gap * (cols - 1)) / cols
        card_h = min((area.height - gap * (rows - 1)) / rows, u * 3.2)
        self.cards: list[Rect] = []
        for rules, r, c in cells:
            card = Rect(
                round(area.left + c * (card_w + gap)),
                round(area.top + r * (card_h + gap)),
                round(card_w),
                round(card_h),
            )
            self.cards.append(card)
            entry = stats[rules.key] if stats is not None else RuleSetStats()
            self._card(card, rulesets.full_name(tr, rules), self._lines(entry))
        close = Rect(0, 0, int(inner.width * 0.4), button_h)
        close.midbottom = inner.midbottom
        self.add(Control(close, tr("dialog.close"), self.close, selected=True))

    def _lines(self, s: RuleSetStats) -> list[str]:
        tr = self.tr
        none = tr("stats.none")
        percent = round(100 * s.win_rate)
        best = none if s.best_time is None else format_clock(s.best_time)
        return [
            f"{tr('stats.played')} {s.played} · {tr('stats.win_rate', percent=percent)}",
            f"{tr('stats.best_time')} {best} · "
            f"{tr('stats.best_score')} {none if s.best_score is None else s.best_score}",
            f"{tr('stats.streak')} {s.current_streak} · {tr('stats.best_streak')} {s.best_streak}",
        ]

    def _card(self, card: Rect, title: str, lines: list[str]) -> None:
        inner = card.inflate(-int(card.height * 0.12), -int(card.height * 0.1))
        line_h = inner.height / (len(lines) + 1.3)
        size = max(self.least, int(min(line_h * 0.62, self.unit() * 0.4)))
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, round(line_h * 1.3)),
                title,
                kind="title",
                size=int(size * 1.1),
            )
        )
        for k, line in enumerate(lines):
            y = inner.top + line_h * (1.3 + k)
            self.add(
                Control(Rect(inner.left, round(y), inner.width, round(line_h)), line, kind="label")
            )
            self.controls[-1].size = size

    def paint(self, screen: pygame.Surface) -> None:
        ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)))
        radius = max(6, int(self.unit() * 0.18))
        for card in self.cards:
            pygame.draw.rect(screen, (34, 60, 46), card, border_radius=radius)
        for control in self.controls:
            self.paint_control(screen, control)
