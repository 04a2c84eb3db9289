"""`python -m bbx.cli ...`"""

import sys

from bbx.cli.main import main

sys.exit(main())
