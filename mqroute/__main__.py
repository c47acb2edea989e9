"""`python -m mqroute`: the same as the `mqroute` command."""

import sys

from mqroute.main import main

sys.exit(main())
