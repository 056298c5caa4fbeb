#!/bin/bash
# pack.sh MPIRR IMPL WILDPROG THREADPROG: node packs (docs/cli/pack.md). Recordings at 4 ranks
# (WILDPROG is wildcard_storm: sources mode with --events, races mode; THREADPROG is thread_sync,
# whose ranks leave sync logs) are packed with `mpirr pack`: each then holds its manifest and one
# pack (one node) and no rank file; `stat --json`, `events --check` and `races` print exactly
# what they printed before; replays under noise (2 each) finish as recorded with the recorded
# output. A pack truncated by 1 byte, a member renamed "../x" and an index entry pointing past
# the members are one line each naming the pack, exit status 2. `mpirr pack` killed (SIGKILL, at
# the steps MPIRR_PACK_TEST_KILL names, and while it wrote the packs of several nodes) leaves a
# recording that replays, and a second run finishes it. A loose file that differs from its
# member is refused. `record --pack` packs when the run ends; an unfinished recording is refused.
. "$(dirname "$0")/lib.sh"
MPIRR=$1 IMPL=$2 WILD=$3 THREADS=$4 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
read -r -a LAUNCH_T <<<"$(launcher "$IMPL" 2 threads)"

record() { # record NAME OPTIONS... -- COMMAND...
    local name=$1
    shift
    run "$TMP/$name" "$MPIRR" record -o "$TMP/$name" "$@"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/$name.err" >&2; fail "$name: the recorded run exited $STATUS"; }
}

# what the tools print about recording NAME, into $TMP/NAME.SUFFIX.* (races without its timings)
tools() {
    local rec=$TMP/$1 to=$TMP/$1.$2
    "$MPIRR" stat --json "$rec" >"$to.stat" 2>&1 || { cat "$to.stat" >&2; fail "$1: stat failed"; }
    # with an event history (loose before packing, as the earlier listing says after)
    [ -e "$rec/rank-00000.events" ] || [ -e "$TMP/$1.before.check" ] || return 0
    "$MPIRR" events "$rec" --check >"$to.check" 2>&1 || { cat "$to.check" >&2; fail "$1: events --check failed"; }
    "$MPIRR" races "$rec" 2>&1 | grep -v '^analysis ' >"$to.races"
}

# replays NAME: 2 replays under noise finish as recorded and print the recorded output
replays() {
    local i
    for i in 1 2; do
        run "$TMP/rep-$1$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/$1"
        [ "$STATUS" -eq 0 ] && replay_as_recorded "$TMP/rep-$1$i" ||
            { cat "$TMP/rep-$1$i.err" >&2; fail "$1: replay $i failed (exit $STATUS)"; }
        same_output "$TMP/$1.out" "$TMP/rep-$1$i.out" || fail "$1: replay $i printed another output"
    done
}

# only_packs NAME COUNT: the recording holds its manifest, COUNT packs and no rank file
only_packs() {
    local left
    left=$(ls -A "$TMP/$1" | grep -Ev '^(manifest|node-0000[0-9]\.pack)$')
    [ -z "$left" ] || fail "$1: files left beside the packs: $left"
    [ "$(ls "$TMP/$1" | grep -c '\.pack$')" -eq "$2" ] || fail "$1: expected $2 pack(s): $(ls "$TMP/$1")"
}

record sources --events -- "${LAUNCH[@]}" "$WILD"
record races --mode races --events -- "${LAUNCH[@]}" "$WILD"
record threads -- "${LAUNCH_T[@]}" "$THREADS" mutex
ls "$TMP/threads" | grep -q '^sync-' || fail "threads: the recording has no sync logs"
for name in sources races threads; do
    tools "$name" before
    cp -a "$TMP/$name" "$TMP/$name-loose"
    "$MPIRR" pack "$TMP/$name" >"$TMP/pack-$name.out" 2>"$TMP/pack-$name.err" ||
        { cat "$TMP/pack-$name.err" >&2; fail "$name: mpirr pack failed"; }
    [ ! -s "$TMP/pack-$name.err" ] || fail "$name: mpirr pack said: $(cat "$TMP/pack-$name.err")"
    only_packs "$name" 1
    tools "$name" after
    for what in stat check races; do
        [ -e "$TMP/$name.before.$what" ] || continue
        cmp -s "$TMP/$name.before.$what" "$TMP/$name.after.$what" ||
            { diff "$TMP/$name.before.$what" "$TMP/$name.after.$what" | head -5 >&2; fail "$name: $what printed otherwise once packed"; }
    done
    replays "$name"
    echo "ok: $name: $(cat "$TMP/pack-$name.out"); the tools print the same, 2 replays as recorded"
done

# hostile packs: one line naming the pack and what was expected, exit status 2
# damage NAME PYTHON: a copy of the packed sources recording whose pack PYTHON rewrote (p: bytes)
damage() {
    cp -a "$TMP/sources" "$TMP/$1"
    python3 - "$TMP/$1/node-00000.pack" "$2" <<'PY'
import struct, sys
path, code = sys.argv[1], sys.argv[2]
p = bytearray(open(path, "rb").read())
def fnv(b):
    h = 0xcbf29ce484222325
    for x in b: h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return h
ix_off, ix_len, count = struct.unpack_from("<QQI", p, len(p) - 40)
entries, at = [], ix_off
for _ in range(count):
    off, n, s, nl = struct.unpack_from("<QQQH", p, at)
    entries.append([off, n, s, bytes(p[at + 26:at + 26 + nl])])
    at += 26 + nl
exec(code)
if code != "p = p[:-1]":
    ix = b"".join(struct.pack("<QQQH", o, n, s, len(nm)) + nm for o, n, s, nm in entries)
    p = p[:ix_off] + ix + struct.pack("<QQIIQ", ix_off, len(ix), count, 0, fnv(ix)) + b"MPIRRPKE"
open(path, "wb").write(p)
PY
    run "$TMP/stat-$1" "$MPIRR" stat "$TMP/$1"
    [ "$STATUS" -eq 2 ] || { cat "$TMP/stat-$1.err" >&2; fail "$1: stat exited $STATUS, expected 2"; }
    [ "$(grep -c . "$TMP/stat-$1.err")" -eq 1 ] || fail "$1: expected one line, got: $(cat "$TMP/stat-$1.err")"
    local name=$1
    shift 2
    expect_error "$TMP/stat-$name" "$TMP/$name/node-00000.pack" "$@"
}
damage truncated "p = p[:-1]" "no pack trailer" "truncated"
damage dotdot 'entries[0][3] = b"../x"' "name \"../x\" is not a rank file's name"
damage past 'entries[1][0] = ix_off + 10' "claims bytes" "expected them between the header"

# a killed `mpirr pack`: the recording replays at each step, and a second pack finishes it
for step in packed unlinking; do
    cp -a "$TMP/sources-loose" "$TMP/killed-$step"
    cp "$TMP/sources.out" "$TMP/killed-$step.out"
    (MPIRR_PACK_TEST_KILL=$step exec "$MPIRR" pack "$TMP/killed-$step" >/dev/null 2>&1)
    [ $? -eq 137 ] || fail "killed-$step: mpirr pack was not killed at $step"
    ls "$TMP/killed-$step" | grep -q '^rank-' || fail "killed-$step: no loose file left"
    tools "killed-$step" after
    sed "s|$TMP/killed-$step|$TMP/sources|g" "$TMP/killed-$step.after.stat" | cmp -s "$TMP/sources.before.stat" - ||
        { sed "s|$TMP/killed-$step|$TMP/sources|g" "$TMP/killed-$step.after.stat" | diff "$TMP/sources.before.stat" - | head -5 >&2; fail "killed-$step: stat printed otherwise"; }
    replays "killed-$step"
    "$MPIRR" pack "$TMP/killed-$step" >"$TMP/repack-$step.out" 2>&1 || { cat "$TMP/repack-$step.out" >&2; fail "killed-$step: the second pack failed"; }
    grep -q 'packed already (1 pack), the loose files an interrupted pack left removed' "$TMP/repack-$step.out" ||
        fail "killed-$step: the second pack said: $(cat "$TMP/repack-$step.out")"
    only_packs "killed-$step" 1
    echo "ok: mpirr pack killed at $step: replays as recorded; packing again finished it"
done

# killed while writing the packs of several nodes: a pack in place holds some rank files, the
# others are loose only (made here by packing a copy that has rank 0's files only); the recording
# reads as before, and packing again starts over from the loose files
cp -a "$TMP/sources-loose" "$TMP/rank0" && cp -a "$TMP/sources-loose" "$TMP/halfway"
rm "$TMP/rank0"/rank-0000[123].*
"$MPIRR" pack "$TMP/rank0" >/dev/null 2>&1 || fail "rank0: mpirr pack failed"
cp "$TMP/rank0/node-00000.pack" "$TMP/halfway/"
tools halfway after
sed "s|$TMP/halfway|$TMP/sources|g" "$TMP/halfway.after.stat" | cmp -s "$TMP/sources.before.stat" - || fail "halfway: stat printed otherwise"
"$MPIRR" pack "$TMP/halfway" >"$TMP/pack-halfway.out" 2>&1 || { cat "$TMP/pack-halfway.out" >&2; fail "halfway: mpirr pack failed"; }
only_packs halfway 1
tools halfway after
sed "s|$TMP/halfway|$TMP/sources|g" "$TMP/halfway.after.stat" | cmp -s "$TMP/sources.before.stat" - || fail "halfway: stat printed otherwise once packed"
cp "$TMP/sources.out" "$TMP/halfway.out"
replays halfway
echo "ok: a pack killed while writing packs: packed again from the loose files, replays as recorded"

# a file both loose and packed must be its member's bytes
cp -a "$TMP/sources" "$TMP/differs"
cp "$TMP/races-loose/rank-00001.tail" "$TMP/differs/rank-00001.tail"
run "$TMP/stat-differs" "$MPIRR" stat "$TMP/differs"
expect_error "$TMP/stat-differs" "rank-00001.tail: differs from its copy in .*node-00000.pack"

# record --pack
record recpack --pack --mode races -- "${LAUNCH[@]}" "$WILD"
only_packs recpack 1
replays recpack
echo "ok: record --pack: one pack, 2 replays as recorded"

# a recording still being made is refused
cp -a "$TMP/sources-loose" "$TMP/running"
sed -i '/^exit-status /d' "$TMP/running/manifest"
run "$TMP/pack-running" "$MPIRR" pack "$TMP/running"
[ "$STATUS" -eq 2 ] || fail "running: mpirr pack exited $STATUS, expected 2"
expect_error "$TMP/pack-running" "not finished"
