"""``python -m mhp_cards``: the same command line as ``mhp``."""

from mhp_cards.cli import main

if __name__ == "__main__":
    main()
