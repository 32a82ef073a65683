#!/usr/bin/env bash
# Random-bot games per CPU second of two checkouts, alternated pass by pass (load that comes and
# goes weighs on both alike). usage: tools/speed/ab.sh BEFORE_DIR AFTER_DIR PASSES [RULESETS...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
before=$1; after=$2; n=$3; shift 3
for i in $(seq "$n"); do
    for w in "$before" "$after"; do
        echo "-- pass $i $w"
        (cd "$w" && .venv/bin/python "$here/rates.py" "$@")
    done
done
