"""``python -m rivals.cli``: the ``rivals`` command."""

import sys

from rivals.cli import main

sys.exit(main())
