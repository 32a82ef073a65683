"""``python -m wargamekit``: the same as the ``wargamekit`` command."""

from .cli import main

if __name__ == "__main__":
    main()
