"""``python -m azul.cli``, the same as the ``azul`` command."""

import sys

from azul.cli import main

sys.exit(main())
