"""Instructions per run of a statement, counted by cachegrind (issue 9's per-call figures).

    python tools/speed/cgloop.py [--setup CODE] [--number N] STATEMENT

runs ``CODE`` once, then ``STATEMENT`` in loops of none, N and 2N runs (N: 2,000 by
default), each in its own process under ``valgrind --tool=cachegrind``, with the environment
``icount.sh`` counts games in (one BLAS thread, ``PYTHONHASHSEED=0``); it prints what one run
of the statement costs, the loop's own step included (an empty Python call in the loop costs
~870 instructions; the statement ``pass`` counts the bare step), as the mean of the two
differences, and each difference: where they disagree, the processes differed by more than the
statement (tables keyed by objects' addresses, such as pickle's memo, probe differently from
one process to the next, up to a few million instructions), and a larger N narrows it. A
warm-up of the statement runs in every process before the count, so the interpreter's
specialisation and caches are warm in each. Needs ``valgrind``; run it from a checkout's root
(its ``.venv``).

    $ python tools/speed/cgloop.py --setup "from wargamekit.geometry import Hex; a, b = Hex(0, 0), Hex(3, -1)" "a.distance(b)"
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

#: the loop counted: setup, a warm-up, then ``n`` runs between two marks the count differences
_PROGRAM = """\
import gc
{setup}
def _run(_n):
    for _ in range(_n):
        {statement}
_run({warmup})
gc.collect()
gc.disable()
_run({n})
"""

_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}


def count(python: str, setup: str, statement: str, n: int, warmup: int) -> int:
    """Instructions of the whole program (setup, warm-up and ``n`` runs) under cachegrind."""
    program = _PROGRAM.format(setup=setup, statement=statement, n=n, warmup=warmup)
    result = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         python, "-c", program],
        env={**os.environ, **_ENV}, capture_output=True, text=True, check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if result.returncode != 0 or found is None:
        own = "\n".join(line for line in result.stderr.splitlines() if not re.match(r"(==|--)\d+(==|--)", line))
        sys.exit(f"cgloop: the program failed under valgrind:\n{own[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("statement", help="one line of Python, run in a loop")
    parser.add_argument("--setup", default="pass", help="Python run once before the loop")
    parser.add_argument("--number", "-n", type=int, default=2_000, help="runs counted (default 2,000)")
    parser.add_argument("--warmup", type=int, default=200, help="runs before the count (default 200)")
    args = parser.parse_args(argv)
    python = str(Path(".venv/bin/python")) if Path(".venv/bin/python").exists() else sys.executable
    setup = textwrap.dedent(args.setup)
    n = args.number
    zero, once, twice = (count(python, setup, args.statement, k * n, args.warmup) for k in (0, 1, 2))
    first, second = (once - zero) / n, (twice - once) / n
    print(f"{(first + second) / 2:,.0f} instructions per run of {args.statement!r} "
          f"(the first {n:,} runs: {first:,.0f}; the next {n:,}: {second:,.0f})")


if __name__ == "__main__":
    main()
