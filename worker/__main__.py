"""``python -m worker``: the same RQ worker as ``ironworks worker``, options and all."""

from __future__ import annotations

import sys

from api.cli import main as ironworks_main


def main(argv: list[str] | None = None) -> int:
    return ironworks_main(["worker", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
