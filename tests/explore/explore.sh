#!/bin/bash
# explore.sh MPIRR IMPL EXPLORE_BIN PROGRAMS_BIN: mpirr explore on real MPI runs.
#  1. explore_crash crashes only in an order native runs never take (3 2 1, natively two receives
#     forced away from their native message): explore finds it within 20 runs, the first run took the
#     native order, and the recording it keeps replays (with noise) to the same crash 5 times;
#  2. a race-free program: 0 racing receives, one run;
#  3. racing receives and no failure, --all --budget 6: 6 runs, each a distinct set of forced
#     choices, each forced receive took the forced message, every digest reported;
#  4. bad input: one line each, exit status 2, nothing run;
#  5. SIGINT while the first run runs: the summary line says the search was interrupted, exit
#     status 130.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/interrupt.sh"
MPIRR=$1
IMPL=$2
BIN=$3
PROGS=$4
read -r -a L4 <<<"$(launcher "$IMPL" 4)"
RUN_TIMEOUT=240 # a whole search; each of its runs is bounded by the test's total

# summary OUT: the summary line of an explore run's stdout.
summary() {
    grep '^explore: ' "$1.out" || fail "$1: no summary line"
}

# forced_sets TSV: one line per run, the set of forced choices behind it (sorted R:E=S words),
# following the parent column up to run 1.
forced_sets() {
    awk -F'\t' 'NR > 1 { parent[$1] = $2; choice[$1] = $3 ":" $4 "=" $6; n = $1 }
        END { for (r = 1; r <= n; r++) {
                  s = ""; for (x = r; parent[x] != "-"; x = parent[x]) s = s " " choice[x]
                  print r ":" s } }' "$1" |
        while IFS=: read -r run set; do
            printf '%s\n' "$(printf '%s\n' $set | sort | tr '\n' ' ')"
        done
}

# --- 1. the crash behind a native order that never happens -----------------------------------
D=$TMP/crash
run "$TMP/crash" "$MPIRR" explore --budget 20 -o "$D" -- "${L4[@]}" "$BIN/explore_crash"
# exit status 1: a run ended otherwise than run 1
[ "$STATUS" -eq 1 ] || { cat "$TMP/crash.err" >&2; fail "explore of explore_crash: exit status $STATUS, expected 1"; }
line=$(summary "$TMP/crash")
echo "crash: $line"
[[ $line =~ ^explore:\ ([0-9]+)\ runs.*\ run\ ([0-9]+)\ ended\ otherwise\ \(exit\ ([0-9]+),\ rank\ 0\ SIGSEGV\;\ run\ 1:\ exit\ 0\)\ after\ forcing\ (.*)\;\ its\ recording:\ (.*)$ ]] ||
    fail "crash: the summary does not name a failing run that died of SIGSEGV: $line"
runs=${BASH_REMATCH[1]} failing=${BASH_REMATCH[2]} status=${BASH_REMATCH[3]}
forced=${BASH_REMATCH[4]} rec=${BASH_REMATCH[5]}
[ "$runs" -le 20 ] && [ "$runs" -eq "$failing" ] || fail "crash: $runs runs, the failing one $failing"
[ "$rec" = "$(realpath "$D")/run-$(printf %04d "$failing")" ] || fail "crash: recording path $rec"
nforced=$(grep -o '[0-9]*:[0-9]*=[0-9]*' <<<"$forced" | wc -l)
# natively the reversed order needs two forced receives; under load an unforced receive can take
# the reversed message on its own, so what must hold is: at least one forced receive, and each
# took the message it was forced to in the failing run's history
[ "$nforced" -ge 1 ] || fail "crash: the summary lists no forced receive: $forced"
for choice in $(grep -o '[0-9]*:[0-9]*=[0-9]*' <<<"$forced"); do
    IFS=':=' read -r frank fevent fsrc <<<"$choice"
    got=$("$MPIRR" events "$rec" --rank "$frank" | grep "^$frank:$fevent MPI_")
    [[ $got == *" src=$fsrc "* ]] || fail "crash: forced $choice, the failing run's history says: $got"
done
# run 1 is a native run: the staggered senders do not arrive reversed (bench/explore measures
# how rarely they do; a strict "1 2 3" would fail on a machine loaded enough to swap two)
! grep -q 'order 3 2 1' "$D/run-0001/stdout" || fail "crash: run 1 took the reversed order natively"
grep -Eq '^round [0-9]+ order 3 2 1$' "$rec/stdout" || fail "crash: the failing run's output: $(cat "$rec/stdout")"
[ "$(awk -F'\t' -v r="$failing" '$1 == r { print $8 }' "$D/explore.tsv")" = "exit $status, rank 0 SIGSEGV" ] ||
    fail "crash: explore.tsv row $failing: $(awk -F'\t' -v r="$failing" '$1 == r' "$D/explore.tsv")"
# the recording replays to the same crash, with the same output, every time
for i in 1 2 3 4 5; do
    run "$TMP/replay$i" "$MPIRR" replay --noise "$NOISE_US" "$rec"
    [ "$STATUS" -eq "$status" ] || { cat "$TMP/replay$i.err" >&2; fail "replay $i: exit status $STATUS, recorded $status"; }
    same_output "$TMP/replay$i.out" "$rec/stdout" || fail "replay $i: output differs from the failing run's"
    grep -q '^mpirr: replay followed the recording: rank 0 SIGSEGV at event' "$TMP/replay$i.err" ||
        fail "replay $i: $(grep '^mpirr: ' "$TMP/replay$i.err")"
done
echo "ok: crash found in $runs runs after forcing $forced; 5 replays crash as recorded"

# --- 2. race-free: one run ---------------------------------------------------------------------
D=$TMP/free
run "$TMP/free" "$MPIRR" explore -o "$D" -- "${L4[@]}" "$PROGS/deterministic" 2
[ "$STATUS" -eq 0 ] || { cat "$TMP/free.err" >&2; fail "explore of deterministic: exit status $STATUS"; }
line=$(summary "$TMP/free")
[[ $line == "explore: 1 run, 1 distinct outcome; 0 racing receives: no other message order to force (run 1: exit 0)" ]] ||
    fail "race-free: $line"
grep -q '^run 1: exit 0, stdout [0-9a-f]\{16\}, 0 racing receives (0 choices)$' "$TMP/free.out" ||
    fail "race-free: $(head -1 "$TMP/free.out")"
[ "$(ls "$D")" = "$(printf 'explore.tsv\nrun-0001')" ] || fail "race-free: DIR holds $(ls "$D" | tr '\n' ' ')"
[ "$(wc -l <"$D/explore.tsv")" -eq 2 ] || fail "race-free: explore.tsv has $(wc -l <"$D/explore.tsv") lines"
echo "ok: race-free: $line"

# --- 3. --all: distinct choices, every outcome reported ----------------------------------------
D=$TMP/all
run "$TMP/all" "$MPIRR" explore --all --budget 6 -o "$D" -- "${L4[@]}" "$PROGS/wildcard_storm" 1
[ "$STATUS" -eq 0 ] || { cat "$TMP/all.err" >&2; fail "explore --all of wildcard_storm: exit status $STATUS"; }
line=$(summary "$TMP/all")
[[ $line =~ ^explore:\ 6\ runs,\ ([0-9]+)\ distinct\ outcomes\;\ no\ run\ ended\ otherwise\ than\ run\ 1\ \(exit\ 0\)\;\ budget\ of\ 6\ runs\ spent ]] ||
    fail "--all: $line"
distinct=${BASH_REMATCH[1]}
[ "$(tail -n +2 "$D/explore.tsv" | wc -l)" -eq 6 ] || fail "--all: explore.tsv has $(tail -n +2 "$D/explore.tsv" | wc -l) runs"
sets=$(forced_sets "$D/explore.tsv")
[ "$(sort <<<"$sets" | uniq -d)" = "" ] || fail "--all: a set of forced choices was explored twice: $(sort <<<"$sets" | uniq -d)"
# each forced receive took the forced message in its run
while IFS=$'\t' read -r r parent rank event site src orig ending digest new; do
    [ "$parent" = - ] && continue
    [ "$ending" = "exit 0" ] || fail "--all: run $r ended with $ending"
    got=$("$MPIRR" events "$D/run-$(printf %04d "$r")" --rank "$rank" | grep "^$rank:$event MPI_")
    [[ $got == *" src=$src "* ]] || fail "--all: run $r forced $rank:$event=$src (site $site), its history says: $got"
done < <(tail -n +2 "$D/explore.tsv")
# the outcome lines list exactly the digests of explore.tsv, each once
tsv_digests=$(tail -n +2 "$D/explore.tsv" | cut -f9 | sort -u)
out_digests=$(sed -n 's/^outcome [0-9]*: exit 0, stdout \([0-9a-f]\{16\}\): .*/\1/p' "$TMP/all.out" | sort)
[ "$tsv_digests" = "$out_digests" ] || fail "--all: outcome lines $out_digests, explore.tsv $tsv_digests"
[ "$(wc -l <<<"$out_digests")" -eq "$distinct" ] && [ "$distinct" -ge 2 ] ||
    fail "--all: $distinct distinct outcomes, $(wc -l <<<"$out_digests") outcome lines (forcing must change the order)"
echo "ok: --all: 6 distinct flip sets, forced sources taken, $distinct outcome digests reported"

# --- 4. bad input: one line, exit status 2, nothing left behind --------------------------------
# bad NAME DIR PATTERN ARGS...: explore ARGS fails with status 2 and one line matching PATTERN,
# and DIR was not made.
bad() {
    name=$1 dir=$2 pat=$3
    shift 3
    run "$TMP/$name" "$MPIRR" explore "$@"
    [ "$STATUS" -eq 2 ] || fail "$name: exit status $STATUS, expected 2"
    expect_error "$TMP/$name" "$pat"
    [ "$(wc -l <"$TMP/$name.err")" -eq 1 ] || { cat "$TMP/$name.err" >&2; fail "$name: more than one line"; }
    [ ! -s "$TMP/$name.out" ] || fail "$name: printed $(head -1 "$TMP/$name.out")"
    [ -z "$dir" ] || [ ! -e "$dir" ] || fail "$name: $dir was made"
}
P=$BIN/explore_crash
bad not_mpi "$TMP/b1" 'is not an MPI program' -o "$TMP/b1" -- "${L4[@]}" /bin/true
bad budget0 "$TMP/b2" 'explore: --budget 0: expected an integer from 1 to' --budget 0 -o "$TMP/b2" -- "${L4[@]}" "$P"
bad depth "$TMP/b3" 'explore: --depth x: expected an integer' --depth x -o "$TMP/b3" -- "${L4[@]}" "$P"
bad option "$TMP/b4" "unknown option '--bogus'" --bogus -o "$TMP/b4" -- "${L4[@]}" "$P"
bad both "$TMP/b5" 'exclude each other' --all --until-fail -o "$TMP/b5" -- "${L4[@]}" "$P"
bad no_dir "" 'explore needs a directory' -- "${L4[@]}" "$P"
touch "$TMP/file" # a directory under a regular file cannot be made (as root too)
bad unwritable "" "cannot create $TMP/file/x" -o "$TMP/file/x" -- "${L4[@]}" "$P"
bad unwritable_proc "" 'cannot create /proc/mpirr-explore' -o /proc/mpirr-explore -- "${L4[@]}" "$P"
mkdir "$TMP/full" && touch "$TMP/full/keep"
bad not_empty "" 'full exists and is not empty' -o "$TMP/full" -- "${L4[@]}" "$P"
[ "$(ls "$TMP/full")" = keep ] || fail "not_empty: the directory was changed"
echo "ok: bad input refused"

# --- 5. interrupted: SIGINT once the first run's program is running -----------------------------
# explore_crash with rounds enough for hours ("safe": it never crashes); rank 0 prints a line per
# round into DIR/run-0001.stdout, which the test follows: no guess at how long a start takes.
D=$TMP/int
sigint_when_printed int "$D/run-0001.stdout" '^round 0 order' \
    "$MPIRR" explore --budget 5 -o "$D" -- "${L4[@]}" "$BIN/explore_crash" 999999 safe
line=$(summary "$TMP/int")
[[ $line =~ ^explore:\ interrupted\ by\ SIGINT\ after\ 1\ run, ]] || fail "interrupted: the summary does not say so: $line"
[[ $line =~ \ run\ [0-9]+\ ended\ otherwise\ \( ]] && fail "interrupted: the interrupted run was taken for a failing one: $line"
[[ $line =~ \;\ [0-9]+\ choices?\ left\ unexplored$ ]] || fail "interrupted: the summary does not say what is left: $line"
grep -q 'no recording.*COMMAND must run an MPI program' "$TMP/int.err" &&
    fail "interrupted: explore blamed the command: $(cat "$TMP/int.err")"
echo "ok: interrupted: $line"
