"""The table: the scene that turns gestures into engine commands (scene), the model it owns
(the table's state, which the view reads: model), where the cards lie (places), the sprite
layer that draws them (view, with its images in chrome), animations as data (animation), the
client of the solver workers (hints), a refusal's answer (feedback), the Finish button's run
(finish), the card "Tap to place" chose (select) and the toast (toast).

It imports none of them: the model (game.table.model) loads without the scene and pygame."""
