#!/bin/bash
# analysis_bench.sh BUILD_DIR: speed and peak memory of the post-mortem analysis, `mpirr races
# DIR --json`, on the event histories of the NAS SP and LU skeletons (bench/events, Open MPI,
# NP ranks, recorded with `mpirr record --no-wtime --events`) and on synthetic histories of
# SYNTH_SMALL and SYNTH_EVENTS calls written by synth_trace (bench/analysis/synth_trace.c).
# Prints a markdown table: the step times `mpirr races` reports in its "summary" (read,
# matching, happened-before, races, Chu & Huang, cover), the rate of matching +
# happened-before + races in M events/s (target: 5 M events/s on one core), the process's peak
# RSS, its bytes per event, and the wall time and size of the whole --json run (its output
# included). Then the time and peak RSS of `mpirr frontier DIR --at 0:1000 --json` on the
# largest synthetic history. The analysis runs pinned to one core (taskset) when it can.
# Environment: NP (ranks, a perfect square; default 16), SP_ITERS / LU_ITERS (time steps;
# default the programs' own), SYNTH_EVENTS (default 10000000), SYNTH_SMALL (default 1000000;
# empty: none), SYNTH_FARM (sizes of synthetic task-farm histories, synth_trace's farm mix, a
# stress case for the race analyses; default none: their --json output is about 5.6 KB per
# event), SYNTH_WILD (sizes of all-wildcard histories, synth_trace's wild mix, default none),
# SYNTH_HUGE (sizes of mixed histories of SYNTH_HUGE_RANKS ranks, default 4096: the
# billion-event case of issue 35, e.g. SYNTH_HUGE="10000000 100000000"; default none; check
# free space in /tmp first, about 1.7 MB per million events; the analysis's spill file takes
# about 60 bytes per event more while it runs), BENCH_PROGS (default "sp_skeleton lu_skeleton";
# empty: none), BENCH_TIMEOUT (seconds per run, default 300; the huge rows need far more),
# BENCH_BASE (another build directory, e.g. main's: each trace is also analysed by its mpirr,
# in a row "before" just above this build's "after", on the same traces in the same run).
# SYNTH_EVENTS may list several sizes (SYNTH_EVENTS="10000000 100000000"). The peak RSS column
# is wait4's ru_maxrss: it counts the spill file's pages while they are mapped, which the
# analysis keeps to about 1 GiB (docs/analysis.md, "Memory").
set -u
BUILD=${1:-build}
NP=${NP:-16}
MPIRR=$BUILD/bin/mpirr
SYNTH=$BUILD/bench/analysis/synth_trace
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
[ -x "$MPIRR" ] || { echo "analysis_bench: no $MPIRR (build $BUILD first)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/mpirr-analysis-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
T=(timeout -k 5 "${BENCH_TIMEOUT:-300}")
PIN=()
command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && PIN=(taskset -c 0)

# measure OUT CMD...: runs CMD (stdin from /dev/null), streaming its stdout away but keeping
# the last 64 KiB in OUT.tail; writes "wall_s peak_kb stdout_bytes exit_status" to OUT and
# CMD's stderr to OUT.err. The peak RSS is the child's own (wait4's ru_maxrss).
measure() {
    python3 - "$@" <<'EOF'
import os, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
with open(out + ".err", "wb") as err:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
    total, tail = 0, b""
    while True:
        b = p.stdout.read(1 << 20)
        if not b:
            break
        total += len(b)
        tail = (tail + b)[-65536:]
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
wall = time.monotonic() - t0
with open(out + ".tail", "wb") as f:
    f.write(tail)
with open(out, "w") as f:
    f.write("%.3f %d %d %d\n" % (wall, ru.ru_maxrss, total, p.returncode))
EOF
}

# row NAME RANKS MEASURED: the table row of `mpirr races --json` measured into MEASURED, from
# the "summary" object at the end of its output (nothing, and a message, if there is none).
row() {
    python3 - "$@" <<'EOF'
import json, sys
name, ranks, m = sys.argv[1:4]
wall, kb, nbytes, status = open(m).read().split()
t = open(m + ".tail", "rb").read().decode("utf-8", "replace")
i = t.rfind('"summary":')
if i < 0:
    sys.stderr.write("analysis_bench: no summary in the output of mpirr races %s\n" % name)
    sys.exit(0)
s, _ = json.JSONDecoder().raw_decode(t, i + len('"summary":'))
sec, ev, kb = s["seconds"], s["events"], int(kb)
cells = [name, ranks, ev, s["messages"], s["racing_receives"]]
cells += ["%.3f" % sec[k] for k in ("read", "matching", "happened_before", "races", "chu_huang", "cover")]
cells += ["%.2f" % (s["events_per_second"] / 1e6), "%.0f" % (kb / 1024), "%.0f" % (kb * 1024 / ev if ev else 0),
          "%.2f" % float(wall), "%.0f" % (int(nbytes) / 1e6)]
print("| " + " | ".join(str(c) for c in cells) + " |")
EOF
}

# record NAME PROG [ITERS]: records PROG (Open MPI, NP ranks) with --events into $TMP/NAME.
record() {
    local name=$1 prog=$2
    shift 2
    "${T[@]}" "$MPIRR" record --no-wtime --events -o "$TMP/$name" -- mpirun.openmpi -np "$NP" "$prog" "$@" \
        >"$TMP/$name.out" 2>"$TMP/$name.rec-err"
    local rc=$?
    if [ $rc -ne 0 ] || ! grep -q '^bench ' "$TMP/$name.out"; then
        echo "analysis_bench: recording $name failed (status $rc): $(head -c 400 "$TMP/$name.rec-err")" >&2
        return 1
    fi
    echo "- \`$name\`: $(grep '^bench ' "$TMP/$name.out")" >>"$TMP/notes"
}

traces=()
: >"$TMP/notes"
if command -v mpirun.openmpi >/dev/null && [ -d "$BUILD/bench/openmpi" ]; then
    for prog in ${BENCH_PROGS-sp_skeleton lu_skeleton}; do
        exe=$BUILD/bench/openmpi/$prog
        [ -x "$exe" ] || { echo "analysis_bench: no $exe (build $BUILD first)" >&2; continue; }
        args=()
        case $prog in
        sp_skeleton) [ -n "${SP_ITERS:-}" ] && args=("$SP_ITERS") ;;
        lu_skeleton) [ -n "${LU_ITERS:-}" ] && args=("$LU_ITERS") ;;
        esac
        record "${prog%_skeleton}" "$exe" "${args[@]}" && traces+=("${prog%_skeleton}")
    done
else
    echo "analysis_bench: Open MPI (mpirun.openmpi, $BUILD/bench/openmpi) not found: no skeleton rows" >&2
fi
# mega N: "10M" for 10000000, N itself otherwise
mega() { awk -v n="$1" 'BEGIN {if (n % 1000000 == 0) printf "%dM", n / 1000000; else printf "%d", n}'; }
if [ -x "$SYNTH" ]; then
    specs=()
    for n in ${SYNTH_SMALL-1000000} ${SYNTH_EVENTS:-10000000}; do specs+=("$n:mixed:synthetic-$(mega "$n"):$NP"); done
    for n in ${SYNTH_FARM:-}; do specs+=("$n:farm:synthetic-farm-$(mega "$n"):$NP"); done
    for n in ${SYNTH_WILD:-}; do specs+=("$n:wild:synthetic-wild-$(mega "$n"):$NP"); done
    for n in ${SYNTH_HUGE:-}; do specs+=("$n:mixed:synthetic-huge-$(mega "$n"):${SYNTH_HUGE_RANKS:-4096}"); done
    for spec in "${specs[@]}"; do
        IFS=: read -r n mix name ranks <<<"$spec"
        if "$SYNTH" "$TMP/$name" "$ranks" "$n" "$mix" >"$TMP/$name.out" 2>"$TMP/$name.gen-err"; then
            traces+=("$name")
            echo "$ranks" >"$TMP/$name.ranks"
            echo "- \`$name\`: $(sed "s|$TMP/||" "$TMP/$name.out")" >>"$TMP/notes"
        else
            echo "analysis_bench: synth_trace $n $mix failed: $(head -c 400 "$TMP/$name.gen-err")" >&2
        fi
    done
else
    echo "analysis_bench: no $SYNTH (build $BUILD first): no synthetic rows" >&2
fi

BUILDS=("$BUILD")
[ -n "${BENCH_BASE:-}" ] && BUILDS=("$BENCH_BASE" "$BUILD")
# version B: the label of build B's rows (only when there is a BENCH_BASE)
version() {
    [ -z "${BENCH_BASE:-}" ] && return
    if [ "$1" = "$BENCH_BASE" ]; then echo " (before)"; else echo " (after)"; fi
}
printf '| trace | ranks | events | messages | racing receives | read s | matching s | happened-before s | races s | chu-huang s | cover s | M events/s (match+hb+races) | peak MB | bytes/event (peak) | wall s (--json) | JSON MB |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for name in "${traces[@]}"; do
    for b in "${BUILDS[@]}"; do
        m=$TMP/$name.races
        measure "$m" "${T[@]}" "${PIN[@]}" "$b/bin/mpirr" races "$TMP/$name" --json
        read -r _ _ _ status <"$m"
        [ "$status" = 0 ] || echo "analysis_bench: $b: mpirr races $name exited with status $status: $(head -c 400 "$m.err")" >&2
        [ "$status" = 0 ] && [ -s "$m.err" ] && echo "analysis_bench: $b: mpirr races $name said: $(head -c 400 "$m.err")" >&2
        row "$name$(version "$b")" "$(cat "$TMP/$name.ranks" 2>/dev/null || echo "$NP")" "$m"
    done
done
last=
for name in "${traces[@]}"; do case $name in synthetic-farm-* | synthetic-wild-* | synthetic-huge-*) ;; synthetic-*) last=$name ;; esac; done
if [ -n "$last" ]; then
    for b in "${BUILDS[@]}"; do
        m=$TMP/$last.frontier
        measure "$m" "${T[@]}" "${PIN[@]}" "$b/bin/mpirr" frontier "$TMP/$last" --at 0:1000 --json
        read -r wall kb _ status <"$m"
        [ "$status" = 0 ] || echo "analysis_bench: $b: mpirr frontier $last exited with status $status: $(head -c 400 "$m.err")" >&2
        # shellcheck disable=SC2016 # the backquotes are markdown
        printf '\n`mpirr frontier %s --at 0:1000 --json`%s (read, matching, one happened-before sweep): %s s wall, peak %s MB\n' \
            "$last" "$(version "$b")" "$wall" "$(awk -v kb="$kb" 'BEGIN {printf "%.0f", kb / 1024}')"
    done
fi
if [ ${#PIN[@]} -gt 0 ]; then pinned="pinned to one core (\`${PIN[*]}\`)"; else pinned="not pinned (no taskset)"; fi
printf '\nThe analysis ran %s. The traces:\n' "$pinned"
cat "$TMP/notes"
