"""The table's client of the solver workers (``app.workers``): a hint asked for without
blocking the frame loop and shown when it comes, and the winnable-from-here indicator.

The answer is shown only if the position is still the one asked about; a move, an undo or a
new deal drops the question. A worker that does not answer within HINT_GIVE_UP_SECONDS is
given up (and stopped), and the next hint starts a fresh one.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.game import CELL0, PositionKey
from game.workers import Indicator, LostPosition

if TYPE_CHECKING:
    from pygame import Rect

    from game.i18n import Translator
    from game.table.around import Parts
    from game.workers import Workers

HINT_SECONDS = 3.0  # how long the hinted move stays outlined
INDICATOR_POLL_SECONDS = 0.25  # how often a resting table asks the indicator for its verdict
HINT_GIVE_UP_SECONDS = 20.0  # a worker this late is stuck (or still spawning on a busy Pi)
TIP_SECONDS = 9.0  # how long the lost hint stays when it names the winnable indicator


def shows_the_deal(game: Game) -> bool:
    """Whether ``game`` is at its deal's first position (history may not reach back there)."""
    try:
        return Game.from_code(game.code).position_key() == game.position_key()
    except ValueError:  # a position with no deal behind it
        return False


@dataclass
class Verdicts:
    """The winnable indicator's verdicts on one game's positions, kept to tell its three
    states apart (kpat's): winnable, no longer winnable (which move lost it), never winnable
    from the deal."""

    game: Game | None = None
    winnable: set[PositionKey] = field(default_factory=set)
    deal_lost: bool = False

    def lost_since(self, game: Game) -> tuple[int, Move] | None:
        """How many moves back the last position known winnable lies, and the move made from
        it (the one that lost the game, or the first of those that did)."""
        for back, step in enumerate(reversed(game.history), 1):
            if step.before.position_key() in self.winnable:
                return back, step.move
        return None


@dataclass
class HintMark:
    move: Move
    until: float


@dataclass
class HintJob:
    """A hint being worked out in the hint worker, for this game in this position."""

    future: Future[Any]
    game: Game
    key: PositionKey
    since: float


class HintClient:
    """The table's hint and winnable indicator, a part of the table's ``model`` (its game,
    whether it is on top, its toast, its undo; through its ``outside``, the language, the
    clock, the settings and a yes/no question over the table), asking the ``workers`` (the
    solver's processes: a service the model is given)."""

    def __init__(self, model: Parts, workers: Workers) -> None:
        self.model, self.workers = model, workers
        self.job: HintJob | None = None
        self.mark: HintMark | None = None
        self.indicator: Indicator | None = None  # the winnable indicator, when on
        self.status = ""  # its verdict: "", "won", "lost", ...
        self.seen = Verdicts()  # what the indicator said of this game's positions
        self.lost: tuple[int, Move] | None = None  # moves back to winnable, the move that lost
        self.lost_at = -1  # the length of the history ``lost`` was worked out for
        self.looking: Game | None = None  # the earlier position asked about (:meth:`_look_back`)
        self.undecided = False  # an earlier position the solver could not decide
        self.tipped = False  # this visitor was told where the winnable indicator is

    def tr(self) -> Translator:
        return self.model.outside.tr

    def now(self) -> float:
        return self.model.outside.now()

    def wanted(self) -> bool:
        """Whether the winnable indicator is on (the player's setting)."""
        return self.model.outside.settings.winnable_indicator

    def toast(self, text: str) -> None:
        self.model.show_toast(text)  # clear of the hinted cards

    @property
    def thinking(self) -> bool:
        return self.job is not None and not self.job.future.done()

    def deadline(self, now: float) -> float | None:
        """When the hint's outline goes, or (the indicator still working) when to ask it
        again; None: nothing to wait for. A hint being worked out keeps the table busy."""
        times = [self.mark.until] if self.mark is not None else []
        if self.indicator is not None and self.status == "working":
            times.append(now + INDICATOR_POLL_SECONDS)
        return min(times, default=None)

    def ask(self) -> None:
        """Ask the solver and say "thinking" at once; :meth:`poll` shows the answer when it
        comes, if the position is still the same."""
        game, thinking = self.model.game, self.tr()("table.hint_thinking")
        if game.is_won:  # the finished table, looked at after the win: nothing to hint
            self.toast(self.tr()("table.hint_won"))
            return
        job, key = self.job, game.position_key()
        if job is not None and job.game is game and job.key == key:
            self.toast(thinking)  # already on it: no second search
            return
        self.drop()
        self.mark = None
        self.toast(thinking)
        self.job = HintJob(self.workers.ask_hint(game), game, key, self.now())

    def drop(self) -> None:
        """Forget the hint being worked out (the table goes away, or a new position)."""
        job, self.job = self.job, None
        if job is None:
            return
        job.future.cancel()  # still queued: never runs; running: its answer is ignored
        self.model.drop_toast(self.tr()("table.hint_thinking"))

    def forget(self) -> None:
        """The hint shown and the hint being worked out go (the kiosk's next visitor); the
        indicator's verdicts belong to the game and stay."""
        self.mark = None
        self.drop()

    def forget_visitor(self) -> None:
        """The kiosk's next visitor: :meth:`forget`, and the next lost hint names the winnable
        indicator again."""
        self.forget()
        self.tipped = False

    def moved(self) -> None:
        """The position changed (a move, an undo, a new game): the hint shown and the hint
        being worked out are forgotten, the indicator is told the new position."""
        self.forget()
        self.sync_indicator()

    def poll(self, now: float) -> None:
        """Each frame: show the hint when it has come (cheap while it has not); the outline
        and the indicator's verdict follow the clock."""
        if self.mark and now >= self.mark.until:
            self.mark = None
        if self.indicator is not None:
            self._verdict(self.indicator.poll())
        job, model, tr = self.job, self.model, self.tr()
        if job is None:
            return
        if not job.future.done():
            if now - job.since < HINT_GIVE_UP_SECONDS:
                model.keep_toast(tr("table.hint_thinking"), now + 0.5)  # until done
                return
            self.drop()  # a stuck worker: give up on it, the next hint gets a new one
            self.workers.stop("hint")
            self.toast(tr("table.hint_unavailable"))
            return
        if not model.active:
            return  # shown when the player is back at the table
        self.job = None
        if job.game is not model.game or job.key != model.game.position_key():
            return  # asked about another position: stale
        self.show(job.future, now)

    def show(self, future: Future[Any], now: float) -> None:
        toast, tr = self.toast, self.tr()
        try:
            move = self.workers.hint_answer(future)
        except LostPosition:
            # Moves remain (a card may even go home), but none leads to a win.
            if self.lost_from_the_start():  # no undo helps: a new deal is what to offer
                self.model.drop_toast(tr("table.hint_thinking"))
                question, yes = tr("table.hint_deal_lost"), tr("table.hint_new_deal")
                self.model.outside.ask(question, yes, tr("table.leave_no"), self.deal_again)
            elif self.wanted() or self.tipped:
                toast(tr("table.hint_lost"))
            else:  # the first time, with the indicator off: where to learn it at once
                self.tipped, setting = True, tr("settings.winnable_indicator")
                toast(tip := tr("table.hint_lost_tip", setting=setting))
                self.model.keep_toast(tip, now + TIP_SECONDS)
            return
        except LookupError:
            toast(tr("table.hint_unavailable"))
            return
        except IllegalMove as refusal:
            toast(tr.refusal(refusal))
            return
        if move is None:
            toast(tr("table.hint_none"))
            return
        self.mark = HintMark(move, now + HINT_SECONDS)
        toast(tr("table.hint_move", move=self.describe(move)))

    def deal_again(self) -> None:
        """Back at the table with a new deal of the chosen game and level, at once."""
        self.model.outside.back()
        self.model.outside.new_deal()

    def lost_from_the_start(self) -> bool:
        """Whether the deal itself cannot be won (a lost position told by the solver): the
        table shows the deal as dealt, or the indicator found every earlier position lost."""
        game = self.model.game
        return (self.seen.game is game and self.seen.deal_lost) or shows_the_deal(game)

    def describe(self, move: Move) -> str:
        tr = self.tr()
        card = self.card_of(move)
        if move.dest == FOUNDATION:
            return tr("table.to_foundation", card=card)
        if move.dest >= CELL0:
            return tr("table.to_cell", card=card, cell=move.dest - CELL0 + 1)
        return tr("table.to_column", card=card, column=move.dest + 1)

    # ----------------------------------------------------------------- the indicator
    def sync_indicator(self) -> None:
        """Start or stop the winnable indicator as the setting says; tell it the position."""
        wanted, game = self.wanted(), self.model.game
        if wanted and self.indicator is None:
            self.indicator = self.workers.indicator()
        elif not wanted and self.indicator is not None:
            self.close_indicator()
        if self.seen.game is not game:
            self.seen, self.looking = Verdicts(game), None
        if self.indicator is not None:
            self.indicator.update(game)
            self._verdict(self.indicator.poll())

    def close_indicator(self) -> None:
        if self.indicator is not None:
            try:
                self.workers.close_indicator(self.indicator)
            finally:
                self.indicator, self.looking = None, None
                self.status = ""

    def _verdict(self, status: str) -> None:
        """The indicator's verdict on the position on the table: remember it, and when the
        game has just been lost, say which move lost it and how to go back."""
        game, before = self.model.game, self.status
        self.status = status
        if status == "won":
            self.seen.winnable.add(game.position_key())
        elif status == "lost" and before != "lost":
            if not game.history and not game.moves:
                self.seen.deal_lost = True
            self.lost, self.lost_at = self.seen.lost_since(game), len(game.history)
            if self.lost is not None:
                self._offer()
            elif game.history and not self.seen.deal_lost:
                # Switched on after the losing move: it never saw a winnable position.
                self.looking, self.undecided = game.copy(), False
        elif status == "lost" and self.lost is not None and self.lost_at != len(game.history):
            self.lost, self.lost_at = self.seen.lost_since(game), len(game.history)  # moved on
        if status == "lost" and self.looking is not None:
            self._look_back(game)
        if status != "lost":
            self.lost, self.looking = None, None

    def _offer(self) -> None:
        """Say which move lost the game and that a tap on the bar goes back before it."""
        if self.lost is not None and self.model.active:
            self.toast(self.tr()("table.lost_offer", move=self.describe(self.lost[1])))

    def _look_back(self, game: Game) -> None:
        """The game was lost before the indicator came on: ask it about the earlier positions,
        the latest first, until one is winnable (the move made from it lost the game: named
        and offered at once, as if it had been on) or the deal itself is lost."""
        earlier, indicator = self.looking, self.indicator
        while earlier is not None and indicator is not None:
            verdict = indicator.ask(earlier)
            if verdict == "working":
                return
            if verdict == "won":
                self.seen.winnable.add(earlier.position_key())
                self.looking = None
                self.lost, self.lost_at = self.seen.lost_since(game), len(game.history)
                self._offer()
                return
            self.undecided |= verdict != "lost"
            if not earlier.history:
                self.looking = None
                self.seen.deal_lost = not self.undecided and shows_the_deal(earlier)
                return
            earlier.pop()

    def label(self) -> str:
        """The indicator's words in the info bar ("" when it is off)."""
        tr, status = self.tr(), self.status
        if status and self.model.game.is_won:  # the finished table: not "Winnable"
            return tr("table.winnable_done")
        if status == "lost" and self.lost is not None:
            return tr("table.winnable_lost_since", card=self.card_of(self.lost[1]))
        if status == "lost" and self.seen.deal_lost:
            return tr("table.winnable_never")
        return tr(f"table.winnable_{status}") if status else ""

    def marked(self) -> list[Rect]:
        """The hinted card with what lies on it, and its place (a message keeps off them)."""
        mark, places = self.mark, self.model.places
        return [places.group_rect(mark.move.card), places.move_rect(mark.move)] if mark else []

    def card_of(self, move: Move) -> str:
        return self.tr().card(str(move).split("-")[0])

    def offer_undo(self) -> bool:
        """A tap on the info bar while the game is no longer winnable: offer to undo back to
        the last position known winnable. False when there is nothing to offer."""
        if self.status != "lost" or self.lost is None:
            return False
        (back, move), tr = self.lost, self.tr()

        def go_back() -> None:
            self.model.outside.back()
            for _ in range(back):
                self.model.undo()

        question = tr("table.lost_question", count=back, move=self.describe(move))
        self.model.outside.ask(question, tr("table.lost_undo"), tr("table.leave_no"), go_back)
        return True
