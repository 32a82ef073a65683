#!/usr/bin/env bash
# Instructions per random-bot game (cachegrind), steady state: ROUNDS rounds of seeds 0-4 after a
# warm-up of the same seeds, less a run of the warm-up alone, over the games.
# usage (from a checkout's root, with its .venv): tools/speed/icount.sh RULESET [ROUNDS=2] [fresh]
# fresh: the counted rounds play seeds the process has not met (see games.py), not 0-4 again.
# WARGAMEKIT_GC=off in the environment: the collector off after the warm-up (see games.py).
# WARGAMEKIT_SNAPSHOTS=off: games that keep no snapshots (see games.py).
# One BLAS thread and a fixed hash seed: numpy's OpenBLAS workers spin where valgrind counts
# them, and string hashes move dicts' and sets' work; without these, one program read ±6 %.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
r=$1; n=${2:-2}; seeds=${3:-}
count() {
    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0 WARGAMEKIT_GC=${WARGAMEKIT_GC:-on} WARGAMEKIT_SNAPSHOTS=${WARGAMEKIT_SNAPSHOTS:-on} \
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        .venv/bin/python "$here/games.py" "$r" "$1" $seeds 2>&1 | awk '/I *refs/ {gsub(",", "", $4); print $4}'
}
a=$(count 0); b=$(count "$n")
python3 -c "print('$r', round(($b - $a) / (5 * $n) / 1e6, 2), 'M instr/game')"
