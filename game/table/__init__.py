"""The table: the scene that turns gestures into engine commands (scene), where the cards lie
(places), the sprite layer that draws them (view, with its images in chrome), animations as
data (animation), the client of the solver workers (hints) and the toast (toast)."""

from game.table.scene import TableScene

__all__ = ["TableScene"]
