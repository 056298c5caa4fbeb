#!/bin/sh
# view_bench.sh BUILD_DIR: page size and load time (first frame) of `mpirr view` for synthetic
# histories of 10k, 100k and 1M calls (8 ranks; tests/view/gen_trace.py, mpirr_tracegen),
# measured in headless Chromium by the page's own test hook (#test=perf), plus pan and zoom
# frame times. One line per size on stdout; the raw numbers as JSON lines in view_bench.jsonl.
set -e
BUILD=${1:-build}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MPIRR=$BUILD/bin/mpirr
TRACEGEN=$BUILD/tests/analysis/mpirr_tracegen
OUT=${VIEW_BENCH_OUT:-view_bench.jsonl}
: > "$OUT"
for n in 10000 100000 1000000; do
    start=$(date +%s.%N)
    python3 "$SRC/tests/view/view_test.py" perf "$MPIRR" "$TRACEGEN" "$n" "$OUT"
    end=$(date +%s.%N)
    echo "  ($n: $(echo "$end - $start" | bc) s in all, generating the history included)"
done
