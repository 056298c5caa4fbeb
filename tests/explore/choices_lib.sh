# choices_lib.sh MPIRR IMPL EXPLORE_BIN: what probe_choice.sh and request_choice.sh share
# (sourced with their arguments): ../integration/lib.sh, the arguments, a 3-rank launcher L3,
# explore's summary of a run that died of rank 0's SIGSEGV after one forced choice, the
# replays that prove its recording exact, and the check of a refused flip.
. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.sh"
MPIRR=$1
IMPL=$2
BIN=$3
read -r -a L3 <<<"$(launcher "$IMPL" 3)"
RUN_TIMEOUT=180

# explore_crash_found NAME DIR VALUE_RE: DIR's explore (its stdout NAME.out, exit status in
# STATUS) stopped at a run where rank 0 died of SIGSEGV after forcing 0:E=VALUE (VALUE
# matching VALUE_RE, one group); sets STATUS_RUN (its exit status), EVENT, VALUE, REC and LINE.
explore_crash_found() {
    local name=$1 dir=$2 re=$3
    [ "$STATUS" -eq 1 ] || { cat "$dir.err" >&2; fail "$name: explore exited $STATUS, expected 1 (a failing run)"; }
    LINE=$(grep '^explore: ' "$dir.out") || fail "$name: no summary line"
    [[ $LINE =~ \ run\ [0-9]+\ ended\ otherwise\ \(exit\ ([0-9]+),\ rank\ 0\ SIGSEGV\;\ run\ 1:\ exit\ 0\)\ after\ forcing\ 0:([0-9]+)=$re\ at\ [^\;]*\;\ its\ recording:\ (.*)$ ]] ||
        fail "$name: the summary does not name one forced choice and a SIGSEGV: $LINE"
    STATUS_RUN=${BASH_REMATCH[1]} EVENT=${BASH_REMATCH[2]} VALUE=${BASH_REMATCH[3]} REC=${BASH_REMATCH[4]}
}

# replays3 NAME REC STATUS OUTFILE: REC replays 3 times under noise, each ending with STATUS,
# printing what OUTFILE holds, and saying it followed the recording to rank 0's SIGSEGV.
replays3() {
    local name=$1 rec=$2 want=$3 outfile=$4
    for i in 1 2 3; do
        run "$TMP/$name-rep$i" "$MPIRR" replay --noise "$NOISE_US" "$rec"
        [ "$STATUS" -eq "$want" ] || { cat "$TMP/$name-rep$i.err" >&2; fail "$name: replay $i exited $STATUS, recorded $want"; }
        same_output "$TMP/$name-rep$i.out" "$outfile" || fail "$name: replay $i printed otherwise than the run"
        grep -q '^mpirr: replay followed the recording: rank 0 SIGSEGV at event' "$TMP/$name-rep$i.err" ||
            fail "$name: replay $i: $(grep '^mpirr: ' "$TMP/$name-rep$i.err")"
    done
}

# refused NAME PATTERN PARENT SPEC: replay PARENT --flip SPEC is refused in one line matching
# PATTERN, exit status 2, and makes no directory.
refused() {
    run "$TMP/bad-$1" "$MPIRR" replay "$3" --flip "$4" -o "$TMP/bad-$1.d"
    [ "$STATUS" -eq 2 ] || fail "$1: exit status $STATUS, not 2"
    expect_error "$TMP/bad-$1" "$2"
    [ "$(wc -l <"$TMP/bad-$1.err")" -eq 1 ] || { cat "$TMP/bad-$1.err" >&2; fail "$1: more than one line"; }
    [ ! -e "$TMP/bad-$1.d" ] || fail "$1: the refused flip made its directory"
}
