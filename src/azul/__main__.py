"""``python -m azul`` runs the ``azul`` command."""

import sys

from azul.cli import main

sys.exit(main())
