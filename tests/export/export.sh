#!/bin/bash
# export.sh MPIRR IMPL PROGRAMS_DIR: mpirr export on real recordings (record --events) of
# programs with wildcard receives, nonblocking collectives, several communicators, persistent
# requests and Sendrecv: the Perfetto JSON and the OTF2 archive are read back by their readers
# (python's json, otf2-print) and checked against mpirr's own history and matching
# (check_export.py). Then bad input: one line each, exit status 2 (1 for a write that fails
# mid-way).
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROGS=$3
CHECK=$(dirname "$0")/check_export.py
read -r -a LAUNCH <<<"$(launcher "$IMPL" 4)"
have_otf2=1
"$MPIRR" export --help | grep -q . || fail "mpirr export --help printed nothing"

export_one() { # PROG [TIMES]: record it, export both formats, check them; TIMES=exact: record
    # with MPIRR_EVENTS_EXACT=1, the exports must use and say exact times (else: say rounded)
    local prog=$1 times=${2:-rounded} d=$TMP/$1${2:+.$2}
    [ "$times" = exact ] && export MPIRR_EVENTS_EXACT=1
    run "$d.record" "$MPIRR" record --events -o "$d" -- "${LAUNCH[@]}" "$PROGS/$prog"
    unset MPIRR_EVENTS_EXACT
    [ "$STATUS" -eq 0 ] || { cat "$d.record.err" >&2; fail "recording of $prog exited $STATUS"; }
    "$MPIRR" events "$d" >"$d.events" || fail "mpirr events failed on $prog"
    "$MPIRR" races --json "$d" >"$d.races" || fail "mpirr races failed on $prog"
    run "$d.perfetto" "$MPIRR" export "$d" --format perfetto -o "$d.json"
    [ "$STATUS" -eq 0 ] || { cat "$d.perfetto.err" >&2; fail "export --format perfetto of $prog exited $STATUS"; }
    [ -s "$d.perfetto.err" ] && { cat "$d.perfetto.err" >&2; fail "export of $prog printed on stderr"; }
    echo "== $prog ($IMPL, $times times)"
    python3 "$CHECK" perfetto "$d.json" "$d.events" "$d.races" "$times" || fail "$prog: perfetto check"
    if [ "$times" = exact ]; then
        "$MPIRR" events "$d" --exact >"$d.exact" || fail "mpirr events --exact failed on $prog"
        python3 "$CHECK" bounds "$d.exact" || fail "$prog: rounded ranges"
    fi
    run "$d.otf2" "$MPIRR" export "$d" --format otf2 -o "$d.otf2dir"
    if [ "$STATUS" -eq 2 ] && grep -q 'not built in' "$d.otf2.err"; then
        have_otf2=0
        echo "otf2: not built in, skipped"
        return
    fi
    [ "$STATUS" -eq 0 ] || { cat "$d.otf2.err" >&2; fail "export --format otf2 of $prog exited $STATUS"; }
    otf2-print "$d.otf2dir/traces.otf2" >"$d.print" 2>"$d.print.err" || fail "otf2-print cannot read the archive of $prog"
    otf2-print -G "$d.otf2dir/traces.otf2" >"$d.defs" 2>>"$d.print.err" || fail "otf2-print -G failed on $prog"
    [ -s "$d.print.err" ] && { head -5 "$d.print.err" >&2; fail "otf2-print warned about the archive of $prog"; }
    otf2-print -A "$d.otf2dir/traces.otf2" | grep -q "MPIRR::TIMES" || fail "$prog: no MPIRR::TIMES property in the archive"
    python3 "$CHECK" otf2 "$d.print" "$d.defs" "$d.events" "$d.json" "$times" || fail "$prog: otf2 check"
}

for prog in wildcard_storm icoll_test multi_comm persistent_wildcard sendrecv_wild waitany_waitsome; do
    export_one "$prog"
done
export_one wildcard_storm exact

# bad input: one "mpirr:" line, exit status 2
bad() { # NAME PATTERN CMD...: CMD fails with exit status 2 and one line naming PATTERN
    local name=$1 pat=$2
    shift 2
    run "$TMP/$name" "$@"
    [ "$STATUS" -eq 2 ] || { cat "$TMP/$name.err" >&2; fail "$name: exit status $STATUS, expected 2"; }
    [ "$(grep -c . "$TMP/$name.err")" -eq 1 ] || { cat "$TMP/$name.err" >&2; fail "$name: not one line on stderr"; }
    expect_error "$TMP/$name" "$pat"
}
R=$TMP/wildcard_storm
mkdir -p "$TMP/empty"
bad not-a-recording "$TMP/empty" "$MPIRR" export "$TMP/empty" --format perfetto -o "$TMP/x.json"
run "$TMP/noev" "$MPIRR" record -o "$TMP/noev.rec" -- "${LAUNCH[@]}" "$PROGS/wildcard_storm"
[ "$STATUS" -eq 0 ] || fail "recording without --events exited $STATUS"
bad no-history "--events" "$MPIRR" export "$TMP/noev.rec" --format otf2 -o "$TMP/noev.otf2"
bad unwritable "cannot write" "$MPIRR" export "$R" --format perfetto -o "$TMP/no/such/dir/x.json"
bad unknown-format "unknown format" "$MPIRR" export "$R" --format vampir -o "$TMP/x"
bad no-output "-o OUT" "$MPIRR" export "$R" --format perfetto
if [ "$have_otf2" -eq 1 ]; then
    touch "$TMP/afile"
    bad otf2-on-a-file "not a writable directory" "$MPIRR" export "$R" --format otf2 -o "$TMP/afile"
    bad otf2-exists "already holds" "$MPIRR" export "$R" --format otf2 -o "$R.otf2dir"
    # symlinks planted under the archive's names are refused, never followed; the victims and
    # the directory are left as they were (no stage directory left behind)
    mkdir -p "$TMP/planted" "$TMP/victim"
    echo keep >"$TMP/victim-file"
    ln -s "$TMP/victim" "$TMP/planted/traces"
    bad otf2-planted-dir "already holds an OTF2 archive (traces)" "$MPIRR" export "$R" --format otf2 -o "$TMP/planted"
    rm "$TMP/planted/traces"
    ln -s "$TMP/victim-file" "$TMP/planted/traces.def"
    bad otf2-planted-file "already holds an OTF2 archive (traces.def)" "$MPIRR" export "$R" --format otf2 -o "$TMP/planted"
    [ -z "$(ls -A "$TMP/victim")" ] || fail "an export wrote into the directory a planted symlink names"
    [ "$(cat "$TMP/victim-file")" = keep ] || fail "an export wrote through a planted symlink"
    [ "$(ls -A "$TMP/planted")" = traces.def ] || fail "an export left files in $TMP/planted: $(ls -A "$TMP/planted")"
    rm "$TMP/planted/traces.def"
    run "$TMP/planted-ok" "$MPIRR" export "$R" --format otf2 -o "$TMP/planted"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/planted-ok.err" >&2; fail "export into an emptied directory exited $STATUS"; }
    [ "$(ls -A "$TMP/planted" | tr '\n' ' ')" = "traces traces.def traces.otf2 " ] ||
        fail "the archive's names in place, and nothing else: $(ls -A "$TMP/planted")"
    otf2-print "$TMP/planted/traces.otf2" >/dev/null 2>"$TMP/planted.print.err" || fail "otf2-print cannot read the moved archive"
fi
# a write that fails mid-way (a 16 KiB file size limit; SIGXFSZ ignored, so write() says
# EFBIG): exit status 1, one line, no partial file left
run "$TMP/full" bash -c 'trap "" XFSZ; ulimit -f 16; exec "$@"' - "$MPIRR" export "$R" --format perfetto -o "$TMP/big.json"
[ "$STATUS" -eq 1 ] || { cat "$TMP/full.err" >&2; fail "a write failing mid-way: exit status $STATUS, expected 1"; }
expect_error "$TMP/full" "writing $TMP/big.json failed"
[ -e "$TMP/big.json" ] && fail "a failed export left $TMP/big.json"
echo "bad input: one line each, exit status 2; a failed write: 1"
