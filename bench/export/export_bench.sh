#!/bin/bash
# export_bench.sh BUILD_DIR: speed and size of `mpirr export` in both formats, side by side with
# the event history's own size, on synthetic histories of SIZES calls (16 ranks, written by
# bench/analysis/synth_trace: halo exchanges, pipelines, wildcard receives, collectives, with
# the runtime's default 32 µs tick). For each size and format: the export's wall time (the
# analysis it loads included, and separately the time `mpirr races --json` takes to load and
# analyse the same history), calls exported per second, output bytes per call, and peak RSS.
# Prints a markdown table. Environment: SIZES (default "100000 1000000"), NP (default 16),
# BENCH_TIMEOUT (seconds per run, default 600). The exports run pinned to one core when
# taskset can.
set -u
BUILD=${1:-build}
MPIRR=$BUILD/bin/mpirr
SYNTH=$BUILD/bench/analysis/synth_trace
NP=${NP:-16}
[ -x "$MPIRR" ] && [ -x "$SYNTH" ] || { echo "export_bench: build $BUILD first (mpirr, synth_trace)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/mpirr-export-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
PIN=()
command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && PIN=(taskset -c 0)

# measure CMD...: runs CMD; prints "wall_s peak_kb exit_status" (the child's own peak RSS)
measure() {
    python3 - "$@" <<'PY'
import os, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
print("%.3f %d %d" % (time.monotonic() - t0, ru.ru_maxrss, os.waitstatus_to_exitcode(status)))
PY
}

echo "| calls | format | history bytes/call | output bytes/call | output / history | export s | calls/s | analysis load s | peak RSS MB |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
for n in ${SIZES:-100000 1000000}; do
    d=$TMP/h$n
    "$SYNTH" "$d" "$NP" "$n" mixed >/dev/null || { echo "export_bench: synth_trace failed" >&2; exit 1; }
    calls=$("$MPIRR" races --json "$d" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["events"])')
    hist=$(cat "$d"/rank-*.events | wc -c)
    read -r load_s _ _ < <(measure "${PIN[@]}" "$MPIRR" races --json "$d")
    for fmt in perfetto otf2; do
        out=$TMP/out.$fmt
        rm -rf "$out"
        read -r wall kb st < <(measure "${PIN[@]}" "$MPIRR" export "$d" --format "$fmt" -o "$out")
        [ "$st" -eq 0 ] || { echo "export_bench: export --format $fmt exited $st" >&2; exit 1; }
        bytes=$(du -sb "$out" | cut -f1)
        python3 - "$n" "$calls" "$fmt" "$hist" "$bytes" "$wall" "$load_s" "$kb" <<'PY'
import sys
n, calls, fmt, hist, out, wall, load, kb = sys.argv[1:]
calls, hist, out, wall, load, kb = int(calls), int(hist), int(out), float(wall), float(load), int(kb)
print("| %d | %s | %.3f | %.1f | %.0fx | %.2f | %.2f M | %.2f | %.0f |" % (
    calls, fmt, hist / calls, out / calls, out / hist, wall, calls / wall / 1e6, load, kb / 1024))
PY
        rm -rf "$out"
    done
done
