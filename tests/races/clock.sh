#!/bin/bash
# clock.sh MPIRR IMPL PROGRAM NRANKS: races mode's two clocks (`mpirr record --clock`,
# docs/races.md "The bounded clock"). The program is recorded with --clock vector, --clock
# bounded and no option (bounded, the default); each log header says which clock found the
# races (MPIRR_LOG_FLAG_CLOCK_BOUNDED), the bounded headers average at most 16 bytes, the
# program's races are logged, and 3 replays under noise print what the recording printed.
# A clock mpirr does not know is refused in one line, and so is a log with a header flag this
# mpirr does not know (what an mpirr older than the bounded clock does with its logs).
. "$(dirname "$0")/../integration/lib.sh"
MPIRR=$1 IMPL=$2 PROG=$3 NP=$4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
FLAG_RACES=2 FLAG_BOUNDED=2048

# header_flags LOG: the flags word of a rank log's header (docs/format.md)
header_flags() {
    python3 -c 'import struct,sys; print(struct.unpack_from("<I", open(sys.argv[1], "rb").read(16), 12)[0])' "$1"
}

for clock in vector bounded default; do
    opt=()
    [ "$clock" = default ] || opt=(--clock "$clock")
    run "$TMP/rec-$clock" "$MPIRR" record --mode races "${opt[@]}" --noise "$NOISE_US" -o "$TMP/$clock" -- "${LAUNCH[@]}" "$PROG"
    [ "$STATUS" -eq 0 ] || { cat "$TMP/rec-$clock.err" >&2; fail "recording with clock $clock exited $STATUS"; }
    want=$FLAG_BOUNDED
    [ "$clock" = vector ] && want=0
    logs=("$TMP/$clock"/rank-*.log)
    [ "${#logs[@]}" -eq "$NP" ] && [ -f "${logs[0]}" ] || fail "clock $clock: ${#logs[@]} rank logs, expected $NP"
    for log in "${logs[@]}"; do
        flags=$(header_flags "$log")
        [ $((flags & FLAG_RACES)) -ne 0 ] || fail "$log: clock $clock: not flagged as a races recording ($flags)"
        [ $((flags & FLAG_BOUNDED)) -eq "$want" ] || fail "$log: clock $clock: flags $flags, bounded-clock bit should be $want"
    done
    read -r racing per <<<"$("$MPIRR" stat --json "$TMP/$clock" | python3 -c '
import json, sys
t = json.load(sys.stdin)["total"]
print(t["racing_receives"], t["piggyback_bytes_per_message"] or 0)')"
    [ "$racing" -gt 0 ] || fail "clock $clock: no racing receive logged (the program races)"
    if [ "$clock" != vector ]; then
        python3 -c "import sys; sys.exit(0 if float('$per') <= 16 else 1)" ||
            fail "clock $clock: $per header bytes per message, over 16"
    fi
    echo "clock $clock: $racing racing receives logged, $per header bytes per message"
    for i in 1 2 3; do
        run "$TMP/replay-$clock$i" "$MPIRR" replay --noise "$NOISE_US" "$TMP/$clock"
        [ "$STATUS" -eq 0 ] || { cat "$TMP/replay-$clock$i.err" >&2; fail "replay $i (clock $clock) exited $STATUS"; }
        same_output "$TMP/rec-$clock.out" "$TMP/replay-$clock$i.out" ||
            fail "replay $i (clock $clock) printed something else than the recording"
        replay_as_recorded "$TMP/replay-$clock$i" || { cat "$TMP/replay-$clock$i.err" >&2; fail "replay $i (clock $clock) reported an error"; }
    done
done

run "$TMP/bad" "$MPIRR" record --mode races --clock lamport -o "$TMP/bad" -- "${LAUNCH[@]}" "$PROG"
expect_error "$TMP/bad" clock lamport
[ ! -e "$TMP/bad" ] || fail "record --clock lamport made a recording"

# a flag bit past the known ones (checksum rewritten): refused, naming the file
cp -r "$TMP/bounded" "$TMP/newer"
python3 - "$TMP/newer/rank-00000.log" <<'PY'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
flags = struct.unpack_from("<I", data, 12)[0]
struct.pack_into("<I", data, 12, flags | 4096)
h = 0xcbf29ce484222325
for b in data[:760]:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into("<Q", data, 760, h)
open(path, "wb").write(data)
PY
run "$TMP/newer-stat" "$MPIRR" stat "$TMP/newer"
expect_error "$TMP/newer-stat" "rank-00000.log" "unknown header flags"
[ "$(grep -c '^mpirr: ' "$TMP/newer-stat.err")" -eq 1 ] || fail "more than one line for a log from a newer mpirr"
echo "ok"
