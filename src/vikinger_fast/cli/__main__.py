"""`python -m vikinger_fast.cli`: the `vikinger` command without the installed script."""

import sys

from . import main

sys.exit(main())
