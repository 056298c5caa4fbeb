#!/bin/bash
# outputs.sh MPIRR IMPL BINDIR: the files mpirr writes where the user says (-o FILE), and the
# strings of an untrusted recording in its outputs (src/cli/common/out_file.h, text_escape.h).
#  - view and export -o: a FIFO is written through (its reader gets the page, it stays a
#    FIFO), a character device stays one, a symlink planted at the old temporary name
#    FILE.part leaves its victim alone, a directory is refused in one line, a symlink to a file
#    has its target replaced, a failed write leaves the old FILE as it was, no temporary stays.
#  - badname.c's source file name holds a byte that is not UTF-8, ESC, BEL and a newline: the
#    Perfetto export, races --json and stat --json parse with python's strict json module, and
#    the text of races, events and events --defs holds none of those bytes raw; stat and
#    replay --dry-run show an argument with ESC and BEL as $'...', which bash reads back.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 BIN=$3
read -r -a LAUNCH <<<"$(launcher "$IMPL" 3)"
REC=$TMP/rec
ARG=$'arg\x1b]0;x\a\'q' # an argument with ESC, BEL and a quote: it goes into the manifest
run "$TMP/r" "$MPIRR" record --events -o "$REC" -- "${LAUNCH[@]}" "$BIN/badname" "$ARG"
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "recording badname exited $STATUS"; }

# --- the recording's strings ---------------------------------------------------------------
strict_json() { # FILE WHAT: FILE is strict UTF-8 JSON, holding badname's name decoded
    python3 - "$1" <<'PY' || fail "$2 is not strict JSON with the file name in it"
import json, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8')  # strict: invalid UTF-8 raises
doc = json.loads(text)                                   # strict: raw control bytes raise
def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, dict): yield from (s for x in v.values() for s in strings(x))
    elif isinstance(v, list): yield from (s for x in v for s in strings(x))
name = 'bad\ufffd\x1b]0;title\x07\x1b[31mname\n.c:'
assert any(name in s for s in strings(doc)), 'the file name is missing'
PY
}
"$MPIRR" export "$REC" --format perfetto -o "$TMP/p.json" 2>"$TMP/p.err" || { cat "$TMP/p.err" >&2; fail "export failed"; }
strict_json "$TMP/p.json" "the Perfetto export"
"$MPIRR" races --json "$REC" >"$TMP/races.json" || fail "races --json failed"
strict_json "$TMP/races.json" "races --json"
"$MPIRR" stat --json "$REC" >"$TMP/stat.json" || fail "stat --json failed"
python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$TMP/stat.json" ||
    fail "stat --json is not strict JSON"
"$MPIRR" races "$REC" >"$TMP/races.txt" || fail "races failed"
"$MPIRR" events "$REC" >"$TMP/events.txt" || fail "events failed"
"$MPIRR" events --defs "$REC" >"$TMP/defs.txt" || fail "events --defs failed"
for f in races events; do
    grep -q 'bad\\xff\\x1b\]0;title\\x07\\x1b\[31mname\\n\.c:' "$TMP/$f.txt" ||
        { cat -A "$TMP/$f.txt" | head -5 >&2; fail "$f: the file name is not shown escaped"; }
    LC_ALL=C grep -q $'[\x1b\x07\xff]' "$TMP/$f.txt" && fail "$f: a raw ESC, BEL or 0xff byte"
    grep -q '^\.c:' "$TMP/$f.txt" && fail "$f: a newline inside a name broke a line"
done
LC_ALL=C grep -q $'[\x1b\x07\xff]' "$TMP/defs.txt" && fail "events --defs: a raw ESC, BEL or 0xff byte"
# every event line of the listing is whole: RANK:EVENT first
bad_line=$(grep -Ev '^(#|[0-9]+:[0-9]+ |[0-9]+ thread )' "$TMP/events.txt" | head -1)
[ -z "$bad_line" ] || fail "events: a line that is not an event: $bad_line"
"$MPIRR" stat "$REC" >"$TMP/stat.txt" || fail "stat failed"
"$MPIRR" replay --dry-run "$REC" >"$TMP/dry.txt" || fail "replay --dry-run failed"
for f in stat dry; do
    LC_ALL=C grep -q $'[\x1b\x07]' "$TMP/$f.txt" && fail "$f: a raw ESC or BEL"
    word=$(grep -o "\$'arg[^ ]*" "$TMP/$f.txt" | head -1)
    [ -n "$word" ] || fail "$f: the argument is not shown as \$'...'"
    [ "$(eval "printf %s $word")" = "$ARG" ] || fail "$f: $word is not the argument for a shell"
done
echo "ok: the recording's strings are strict JSON and escaped text"

# --- output files -----------------------------------------------------------------------------
# write CMD OUT: mpirr CMD of the recording to OUT (view, or export in Perfetto's format)
write() {
    local cmd=$1 out=$2
    if [ "$cmd" = view ]; then run "$TMP/w" "$MPIRR" view "$REC" -o "$out"
    else run "$TMP/w" "$MPIRR" export "$REC" --format perfetto -o "$out"; fi
}
# is_output CMD FILE: FILE holds what CMD writes
is_output() {
    if [ "$1" = view ]; then grep -q '</html>' "$2"
    else python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$2"; fi
}
for cmd in view export; do
    D=$TMP/$cmd
    mkdir "$D"
    # a FIFO: its reader gets the whole output, and it is still a FIFO
    mkfifo "$D/fifo"
    cat "$D/fifo" >"$D/fifo.got" &
    reader=$!
    write "$cmd" "$D/fifo"
    [ "$STATUS" -eq 0 ] || { : >"$D/fifo"; wait "$reader"; cat "$TMP/w.err" >&2; fail "$cmd -o FIFO exited $STATUS"; }
    wait "$reader" || fail "$cmd: the FIFO's reader failed"
    [ -p "$D/fifo" ] || fail "$cmd -o FIFO replaced the FIFO"
    is_output "$cmd" "$D/fifo.got" || fail "$cmd -o FIFO: the reader did not get the output"
    # a character device (our own node of the null device, never the system's /dev/null)
    if mknod "$D/null" c 1 3 2>/dev/null; then
        write "$cmd" "$D/null"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/w.err" >&2; fail "$cmd -o DEVICE exited $STATUS"; }
        [ -c "$D/null" ] || fail "$cmd -o DEVICE replaced the device node"
    else
        echo "skipped: cannot mknod a device node here"
    fi
    # a symlink planted at FILE.part (view's old temporary) and at .FILE.part: not followed
    echo victim >"$D/victim"
    ln -s "$D/victim" "$D/out.part"
    ln -s "$D/victim" "$D/.out.part"
    write "$cmd" "$D/out"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/w.err" >&2; fail "$cmd -o FILE beside a planted symlink exited $STATUS"; }
    [ "$(cat "$D/victim")" = victim ] || fail "$cmd wrote through the symlink planted at out.part"
    [ -f "$D/out" ] && [ ! -L "$D/out" ] && is_output "$cmd" "$D/out" || fail "$cmd did not write $D/out"
    # a directory: refused in one line, left as it was
    mkdir "$D/adir"
    write "$cmd" "$D/adir"
    [ "$STATUS" -eq 2 ] || fail "$cmd -o DIRECTORY: exit status $STATUS, expected 2"
    [ "$(grep -c . "$TMP/w.err")" -eq 1 ] || { cat "$TMP/w.err" >&2; fail "$cmd -o DIRECTORY: not one line"; }
    expect_error "$TMP/w" "cannot write $D/adir: it is a directory"
    [ -d "$D/adir" ] && [ -z "$(ls -A "$D/adir")" ] || fail "$cmd -o DIRECTORY changed it"
    # a symlink to a file: the file is replaced, the link stays
    echo old >"$D/target"
    ln -s target "$D/link"
    write "$cmd" "$D/link"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/w.err" >&2; fail "$cmd -o SYMLINK exited $STATUS"; }
    [ -L "$D/link" ] && is_output "$cmd" "$D/target" || fail "$cmd -o SYMLINK: link or target wrong"
    # a write failing mid-way (a 1 KiB file size limit; SIGXFSZ ignored): the old file stays
    echo old >"$D/kept"
    run "$TMP/w" bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' - "$MPIRR" \
        $([ "$cmd" = view ] && echo view "$REC" || echo export "$REC" --format perfetto) -o "$D/kept"
    [ "$STATUS" -eq 1 ] || { cat "$TMP/w.err" >&2; fail "$cmd: a write failing mid-way: exit status $STATUS, expected 1"; }
    [ "$(cat "$D/kept")" = old ] || fail "$cmd: a failed write changed the old file"
    # nothing else left behind: no temporary
    left=$(cd "$D" && ls -A | grep -Ev '^(fifo|fifo.got|null|victim|out.part|.out.part|out|adir|target|link|kept)$')
    [ -z "$left" ] || fail "$cmd left $left in $D"
    echo "ok: $cmd -o FIFO, device, planted symlink, directory, symlink, failed write"
done
