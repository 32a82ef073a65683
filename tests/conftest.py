"""Core test configuration."""

import sys
from pathlib import Path

# The core tests share small test rulesets (tests/rulesets.py); importlib import mode does not
# put the tests folder on sys.path, so do it here, once.
sys.path.insert(0, str(Path(__file__).parent))
