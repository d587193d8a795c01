"""``python -m azul.learn GAME``: self-play training of a game's value network."""

import sys

from azul.learn.command import main

sys.exit(main())
