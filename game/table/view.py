"""Drawing the table: a sprite layer that reads the table's state (TableModel, through the
scene) and changes nothing in it.

Every card is a :class:`CardSprite`. Resting cards lie in the *resting layer*, a
``pygame.sprite.LayeredDirty`` group whose layers are the stacking order (a column's cards
bottom to top, each covered face-up card of a squeezed column with its index strip just above
it, then the placement help and the info bar) over the felt, title, slots and buttons of
game.table.chrome. It draws onto an off-screen picture of the resting table, and only where
something changed. Whatever moves (gliding and turning cards, the lifted group with its shadow,
the hint, a pressed button, the toast) is a sprite of the *top layer*, a second LayeredDirty
group whose background is that picture. So a move redraws only what moved, a drag or a glide
restores only the areas it passes over, and with nothing moving a frame draws nothing at all.

Hit-testing asks the resting layer: :meth:`TableView.card_at` is the top-most resting card
under a point (``get_sprites_at``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from engine.cards import Card
from engine.game import EMPTY
from game.look.cards import HIGHLIGHT, TARGET, CardArt
from game.table.chrome import Chrome, changed_buttons
from game.table.peek import sync_peek
from game.table.sprites import REST, CardSprite, Group, LitImage, Piece, disjoint, new_group
from game.table.toast import ToastImage

if TYPE_CHECKING:
    from game.table.chrome import Seat

# Layers of the resting layer. A resting card lies on REST + 2 * (its place in its pile), its
# index strip one above; piles never overlap one another.
SLOTS = 0
HELP = 150  # outlines of the piles that take the dragged group ("placement help")
BAR = 160
# Layers of the top layer.
PRESSED = 0
PEEK = 5  # a pressed card, lifted over its pile (with its shadow one below)
HINT = 1
MARK = 2  # the cards a refusal points at
SHIFT = 10  # + the tween's z: a card gliding along its column as the fan's gaps change
GLIDE = 80  # + the tween's z (at most 52 tweens, one a card)
DRAG = 200  # the target's outline, the shadow, the lifted group
TOAST = 300

REFUSAL_MARK = (255, 120, 70)  # the outline of a card a refusal points at

_UNSET = object()  # an overlay not placed since the last resize


class TableView:
    def __init__(self, scene: Seat) -> None:
        self.scene = scene
        self.chrome = Chrome(scene)
        self.lit_image = LitImage()  # the chosen card's light (game.table.select)
        self.toast_image = ToastImage()  # the model's toast as drawn (game.table.toast)
        self.rest = new_group()  # the resting cards over the chrome, drawn onto self.picture
        self.top = new_group()  # what moves, drawn onto the screen over self.picture
        self.picture = pygame.Surface((0, 0))
        self._changed: set[Group] = set()  # groups with something to draw
        self._synced = -1  # the scene version the resting layer shows
        self._background: tuple[object, ...] | None = None
        self._shown: dict[Piece, object] = {}  # what each overlay shows (a change redraws it)
        self._hidden: tuple[Card, ...] = ()  # the lifted cards, hidden where they rest
        self._overlays: tuple[object, ...] = ()  # what the overlays were last synced to
        self.cards = [CardSprite(card, self.rest) for card in range(52)]
        self.column_slots: list[Piece] = []
        self.help: list[Piece] = []
        self.bar = self._piece(self.rest, BAR)
        self.pressed = self._piece(self.top, PRESSED)
        self.pulse = self._piece(self.top, PRESSED)  # Finish's one pulse, over its button
        self.peek_shadow = self._piece(self.top, PEEK)
        self.peek = self._piece(self.top, PEEK + 1)
        self.peek_group = self._piece(self.top, PEEK + 2)  # it again, with the cards on it
        self.hints = [self._piece(self.top, HINT), self._piece(self.top, HINT)]
        self.marks: list[Piece] = []
        self.lit = self._piece(self.top, MARK)  # the card chosen by "Tap to place"
        self.target = self._piece(self.top, DRAG)
        self.shadow = self._piece(self.top, DRAG + 1)
        self.lifted = self._piece(self.top, DRAG + 2)
        self.toast = self._piece(self.top, TOAST)
        self.glide_shadow = self._piece(self.top, GLIDE - 1)  # under the leading gliding card
        self.resize()

    @property
    def art(self) -> CardArt:
        return self.chrome.art

    @staticmethod
    def _piece(group: Group, layer: int) -> Piece:
        return Piece(group, layer)

    def resize(self) -> None:
        """New layout or language: new images, and everything is drawn again."""
        self.chrome.resize()
        lay = self.scene.model.layout
        whole = Rect(0, 0, lay.width, lay.height)
        display = pygame.display.get_surface()  # made in its format (not made, then converted)
        self.picture = (
            pygame.Surface(whole.size, 0, display) if display else pygame.Surface(whole.size)
        )
        self._synced = -1
        self._background = None
        pieces: tuple[Piece, ...] = (self.pressed, self.pulse, self.peek_shadow, self.peek)
        pieces = (*pieces, self.peek_group, *self.hints, self.target)
        for piece in (*pieces, self.shadow, self.lifted, self.toast, self.glide_shadow, self.lit):
            self._hide(piece)  # placed again as the scene says
        for piece in (*self.help, *self.marks):
            self._hide(piece)
        self._shown.clear()
        self._hidden = ()
        self._overlays = ()
        for sprite in self.cards:
            sprite.shows = ()  # new images
        for piece in self.column_slots:
            piece.kill()
        self.column_slots = [self._piece(self.rest, SLOTS) for _ in lay.columns]
        self.top.clear(self.picture, self.picture)
        self.repaint_all()

    def repaint_all(self) -> None:
        """Draw the whole resting picture again at the next draw (tools: the naive redraw)."""
        self.rest.repaint_rect(Rect(0, 0, *self.picture.get_size()))
        self._changed.add(self.rest)

    # ================================================================= placing sprites
    def _place(self, piece: Piece, image: pygame.Surface, pos: tuple[int, int], layer: int) -> None:
        """Show ``image`` at ``pos`` on ``layer`` of the piece's group; a change redraws it."""
        if not piece.alive():
            piece.image, piece.pos, piece.level = image, pos, layer
            piece.rect = image.get_rect(topleft=pos)
            piece.home.add(piece, layer=layer)
            self._changed.add(piece.home)
            return
        if piece.image is not image or piece.pos != pos:
            piece.image = image
            piece.rect = image.get_rect(topleft=pos)
            piece.pos = pos
            piece.dirty = 1
        if piece.level != layer:
            piece.home.change_layer(piece, layer)
            piece.level = layer
            piece.dirty = 1
        if piece.dirty:
            self._changed.add(piece.home)

    def _hide(self, piece: Piece) -> None:
        if piece.alive():
            piece.home.remove(piece)  # its area is drawn again
            self._changed.add(piece.home)

    def _overlay(
        self,
        piece: Piece,
        shown: object,
        image: pygame.Surface | None = None,
        pos: tuple[int, int] = (0, 0),
    ) -> None:
        """An overlay showing ``shown`` (None: nothing), placed again only when that changes."""
        if self._shown.get(piece, _UNSET) == shown:
            return
        self._shown[piece] = shown
        if shown is None or image is None:
            self._hide(piece)
        else:
            self._place(piece, image, pos, piece.level)

    def _move_to(self, sprite: CardSprite, group: Group, layer: int) -> None:
        """Hand a card to the top layer (it moves) or back to the resting layer."""
        if sprite.home is not group:
            self._hide(sprite)  # its old area is drawn again; _place shows it in ``group``
            sprite.home, sprite.level = group, layer

    # ================================================================= syncing with the scene
    def sync(self) -> None:
        """Bring the sprites up to the scene: the resting picture when its version changed,
        then everything that moves or blinks this frame."""
        scene = self.scene
        if self.art.four_colors != scene.settings.four_colors:
            self.resize()  # the setting changed: new card images
        if self._synced != scene.model.version:  # (every change of what moves is a new version)
            self._sync_background()
            self._sync_rest(scene.model.moving())
        if scene.model.tweens:
            self._sync_glides()
        elif self.glide_shadow.alive():
            self._overlay(self.glide_shadow, None)
        if scene.model.drag or self._hidden:
            self._sync_drag()
        self._sync_overlays()

    def _sync_background(self) -> None:
        """The chrome changes with the Undo and Redo buttons' state (and the title on a new
        deal)."""
        before, after = self._background, self.chrome.key()
        if before == after:
            return
        self._background = after
        self.rest.clear(self.picture, self.chrome.chrome())
        lay = self.scene.model.layout
        names = None if before is None else changed_buttons(before, after)
        if names is None:
            self.rest.repaint_rect(Rect(0, 0, lay.width, lay.height))
        for name in names or ():  # only Undo's or Redo's state: just that button
            self.rest.repaint_rect(Rect(lay.buttons[name]))
        self._changed.add(self.rest)

    def _sync_rest(self, moving: set[Card]) -> None:
        scene, art, lay = self.scene, self.art, self.scene.model.layout
        game, rest = scene.model.game, scene.model.rest()
        for i, piece in enumerate(self.column_slots):
            if game.cols[i]:
                self._hide(piece)
            else:
                self._place(piece, self.chrome.slot_column, lay.columns[i].topleft, SLOTS)
        for col in game.cols:
            strip = self.chrome.strip_size([rest[card][1] for card in col if rest[card][2]])
            last = len(col) - 1
            for k, card in enumerate(col):
                sprite = self.cards[card]
                if card in moving:
                    self._hide(sprite.strip)
                    continue
                x, y, up = rest[card]
                shows = (x, y, up, k, strip if up and k < last else None, k < last)
                if sprite.resting and sprite.shows == shows:
                    continue  # most cards stay where they were
                self._rest_card(sprite, art.image(card, up, k < last), (x, y), REST + 2 * k)
                sprite.shows = shows
                if strip and up and k < last:
                    image = art.index_strip(card, *strip)
                    self._place(sprite.strip, image, (x, y), REST + 2 * k + 1)
                else:
                    self._hide(sprite.strip)
        for card in game.cells:
            if card != EMPTY:
                self._hide(self.cards[card].strip)
                if card not in moving:
                    x, y, _ = rest[card]
                    self._rest_card(self.cards[card], art.face(card), (x, y), REST)
        for suit in range(4):
            shown = False  # only the top card of a foundation shows (they all lie there)
            for rank in range(game.found[suit] - 1, -1, -1):
                sprite = self.cards[suit * 13 + rank]
                self._hide(sprite.strip)
                if sprite.card in moving:
                    continue
                if shown:
                    self._move_to(sprite, self.rest, REST)
                    self._hide(sprite)
                    sprite.resting = False
                else:
                    x, y, _ = rest[sprite.card]
                    self._rest_card(sprite, art.face(sprite.card), (x, y), REST)
                    shown = True
        self._sync_help()
        self._synced = scene.model.version

    def _rest_card(
        self, sprite: CardSprite, image: pygame.Surface, pos: tuple[int, int], layer: int
    ) -> None:
        self._move_to(sprite, self.rest, layer)
        self._place(sprite, image, pos, layer)
        sprite.resting = True
        sprite.shows = ()

    def _sync_help(self) -> None:
        """Placement help: every pile that takes the dragged (or chosen) group, outlined."""
        scene = self.scene
        rects: list[Rect] = []
        if scene.settings.placement_help:
            drag = scene.model.drag
            aim = (drag.card, drag.legal) if drag else scene.model.chooser.targets()
            if aim is not None:
                rects = [scene.model.places.target_rect(aim[0], dest) for dest in sorted(aim[1])]
        while len(self.help) < len(rects):
            self.help.append(self._piece(self.rest, HELP))
        for piece, rect in itertools.zip_longest(self.help, rects):
            if rect is None:
                self._overlay(piece, None)
            else:
                image, pos = self.chrome.outline(rect, TARGET, self.art.radius, 3, margin=1)
                self._overlay(piece, tuple(rect), image, pos)

    def _sync_glides(self) -> None:
        """Gliding and turning cards, on the top layer."""
        scene, art, lay = self.scene, self.art, self.scene.model.layout
        now, rest = scene.now(), scene.model.rest()
        moving = (t for t in scene.model.tweens if t.start != t.end and not t.shift)
        lead = min(moving, key=lambda t: t.z, default=None)
        if lead is None:
            self._overlay(self.glide_shadow, None)
        else:  # a moving card casts a soft shadow (one, under the first card of what moves)
            x, y = lead.position(now)
            shadow = art.shadow()
            pad = (shadow.get_width() - art.width) // 2
            pos = (int(x) - pad, int(y) - pad)
            self._overlay(self.glide_shadow, pos, shadow, pos)
        covered = {card for col in scene.model.game.cols for card in col[:-1]}  # as they will lie
        for tween in scene.model.tweens:
            sprite = self.cards[tween.card]
            sprite.resting = False
            layer = (SHIFT if tween.shift else GLIDE) + tween.z
            self._move_to(sprite, self.top, layer)
            x, y = tween.position(now)
            if tween.flip:
                t = tween.progress(now)
                showing_face = t >= 0.5 if tween.flip > 0 else t < 0.5
                image = art.image(tween.card, showing_face, tween.card in covered)
                w = max(1, int(lay.card_w * abs(1 - 2 * t)))
                if w != lay.card_w:
                    image = pygame.transform.scale(image, (w, lay.card_h))
                pos = (int(x) + (lay.card_w - w) // 2, int(y))
            else:
                up = rest[tween.card][2]
                image, pos = art.image(tween.card, up, tween.card in covered), (int(x), int(y))
            self._place(sprite, image, pos, layer)

    def _sync_drag(self) -> None:
        """The lifted group (one image, as it is drawn once per drag), its shadow, and the
        outline of the pile it would drop on."""
        scene, art, lay = self.scene, self.art, self.scene.model.layout
        drag = scene.model.drag
        if drag is None:
            self._hidden = ()
            for piece in (self.target, self.shadow, self.lifted):
                self._overlay(piece, None)
            return
        if self._hidden != drag.group:  # just lifted: the group's image shows the cards
            self._hidden = drag.group
            for card in drag.group:
                sprite = self.cards[card]
                sprite.resting = False
                self._move_to(sprite, self.rest, REST)
                self._hide(sprite)
        corner = drag.corner()
        target = None
        if scene.settings.placement_help:
            dest = scene.model.places.drop_dest(Rect(corner, (lay.card_w, lay.card_h)))
            if dest is not None and dest in drag.legal:
                target = scene.model.places.target_rect(drag.card, dest)
        if target is None:
            self._overlay(self.target, None)
        else:
            image, pos = self.chrome.outline(target, HIGHLIGHT, art.radius, 4)
            self._overlay(self.target, tuple(target), image, pos)
        shadow = art.shadow()
        pad = (shadow.get_width() - lay.card_w) // 2
        self._overlay(self.shadow, corner, shadow, (corner[0] - pad, corner[1] - pad))
        image = self.chrome.lift_image(drag.group, drag.offsets)
        self._overlay(self.lifted, (corner, image), image, corner)

    def _sync_overlays(self) -> None:
        """The info bar, a pressed button, the blinking hint, the toast."""
        scene, lay = self.scene, self.scene.model.layout
        texts, mark = scene.bar_text(), scene.model.hints.mark
        blink = mark is not None and scene.model.blink(scene.now())
        marks, pressed = scene.model.marks, scene.model.pressed_card
        failed = scene.save_failed  # shown until a save works
        key: tuple[object, ...] = (texts, failed, scene.model.pressed_button, pressed, mark, blink)
        lit = scene.model.chooser.lit()
        pulse = scene.model.finisher.pulse(scene.now())  # Finish's pulse: a new image each frame
        key = (*key, scene.model.toast, marks, self._synced, lit, pulse)
        if key == self._overlays:
            return
        self._overlays = key
        bar = self.chrome.bar(texts, failed)
        self._overlay(self.bar, bar, bar, lay.info_bar.topleft)
        self._overlay(self.pulse, pulse, *(() if pulse is None else self.chrome.pulsed(pulse)))
        name = scene.model.pressed_button
        if name is None:
            self._overlay(self.pressed, None)
        elif self._shown.get(self.pressed) != name:
            rect = scene.shown_buttons()[name]
            image = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(image, (255, 255, 255, 60), image.get_rect(), border_radius=8)
            self._overlay(self.pressed, name, image, rect.topleft)
        self._sync_peek(pressed)
        rects: list[Rect] = []
        if mark is not None and blink:
            card = scene.model.places.visible_rect(
                mark.move.card
            )  # one card: not those lying on it
            rects = [card, scene.model.places.move_rect(mark.move)]
        for piece, rect in itertools.zip_longest(self.hints, rects):
            if rect is None:
                self._overlay(piece, None)
            else:
                image, pos = self.chrome.outline(rect, HIGHLIGHT, self.art.radius, 4)
                self._overlay(piece, tuple(rect), image, pos)
        marked = [scene.model.places.visible_rect(card) for card in marks]  # never the cards on it
        while len(self.marks) < len(marked):
            self.marks.append(self._piece(self.top, MARK))
        for piece, rect in itertools.zip_longest(self.marks, marked):
            if rect is None:
                self._overlay(piece, None)
            else:
                image, pos = self.chrome.outline(rect, REFUSAL_MARK, self.art.radius, 4, margin=1)
                self._overlay(piece, tuple(rect), image, pos)
        if lit is None:
            self._overlay(self.lit, None)
        else:
            self._overlay(self.lit, tuple(lit), *self.lit_image(lit, self.art.radius))
        toast = scene.model.toast
        if toast is None:
            self._overlay(self.toast, None)
        else:  # drawn again only when its words or its box change
            image = self.toast_image(toast)
            self._overlay(self.toast, ToastImage.key_of(toast), image, toast.rect.topleft)

    def _sync_peek(self, card: Card | None) -> None:
        """A pressed face-up card lifts at once, with the cards on it (game.table.peek)."""
        pieces = (self.peek_shadow, self.peek, self.peek_group)
        sync_peek(self.scene, self.chrome, pieces, self._overlay, card)

    # ================================================================= asking and drawing
    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The top-most resting card drawn at ``pos`` (a foundation shows only its top)."""
        self.sync()
        for sprite in reversed(self.rest.get_sprites_at(pos)):
            if isinstance(sprite, CardSprite) and sprite.resting:
                return sprite.card
        return None

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        """Draw what changed on ``screen`` (all of it when ``full``); the changed areas."""
        self.sync()
        if self.rest in self._changed:
            disjoint(self.rest)
            for rect in self.rest.draw(self.picture):
                if rect.width and rect.height:
                    self.top.repaint_rect(rect)
                    self._changed.add(self.top)
        whole = screen.get_rect()
        if full:
            self.top.repaint_rect(whole)
        elif self.top not in self._changed:
            self._changed.clear()
            return []
        self._changed.clear()
        disjoint(self.top)
        rects = self.top.draw(screen)
        return [whole] if full else [Rect(rect) for rect in rects if rect.width and rect.height]
