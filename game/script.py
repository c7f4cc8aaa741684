"""``python -m game.script``: runs the play-script player, game.dev.script (see there)."""

import sys

from game.dev.script import main

if __name__ == "__main__":
    sys.exit(main())
