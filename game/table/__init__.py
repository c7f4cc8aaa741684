"""The table: the scene that turns gestures into engine commands (scene), the state it owns
and the view reads (state), where the cards lie (places), the sprite layer that draws them
(view, with its images in chrome), animations as data (animation), the client of the solver
workers (hints), a refusal's answer (feedback), the Finish button's run (finish), the card
"Tap to place" chose (select) and the toast (toast)."""

from game.table.scene import TableScene

__all__ = ["TableScene"]
