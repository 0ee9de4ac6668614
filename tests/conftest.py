"""pytest configuration shared by every test folder.

Hypothesis: under CI (``CI`` set, as `.ci/run` runs) the property tests are derandomized so that a run is
reproducible; on a developer's machine they explore new examples every run (and print any failing example).
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.getenv("CI") else "dev")
