#!/bin/bash
# untrusted.sh MPIRR IMPL BINDIR MARKER_LIB
# A recording is untrusted input (docs/cli/replay.md). Manifests edited to run something else
# (a shell in place of the program, a preload, an --app or config file, a second program, a
# launcher from elsewhere, a launch agent, a host file outside the recording's reach, srun's
# output files and prologs, a deleted, changed or forged fingerprint, no command, a relative
# working directory, overflowing numbers) are refused with one line and exit status 2, and
# run nothing: each injection creates a marker file when the edited command is run directly,
# and the marker stays absent under `mpirr replay` and `mpirr replay --dry-run`. --dry-run
# prints one line that, run by a shell, replays the recording. A recording made with a
# cluster's options (network interfaces, a host file next to it) replays from its manifest; a
# recorded srun line passes with its node and task options. A log whose header names another
# rank is refused. Symlinks planted where the runtime creates its files are not followed;
# files follow the umask; record writes nothing outside its directory.
. "$(dirname "$0")/lib.sh"
ulimit -c 0 # the dying runs below must not leave core files in the directories checked
MPIRR=$1 IMPL=$2 BIN=$3 MARKLIB=$4 NP=4
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
read -r -a LAUNCH2 <<<"$(launcher "$IMPL" 2)"
RUNTIME=$(dirname "$MPIRR")/../lib/mpirr/$IMPL/libmpirr.so
PROG=$BIN/diverge
MARK=$TMP/marker
export UNTRUSTED_MARKER=$MARK

run "$TMP/r" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "recording diverge failed"; }

# edit NAME FROM drop KEY... | set KEY VALUE | command WORD...: $TMP/NAME is recording FROM
# with its manifest edited.
edit() {
    name=$1 from=$2
    shift 2
    rm -rf "${TMP:?}/$name" && cp -r "$TMP/$from" "$TMP/$name" || fail "cannot copy $from"
    python3 - "$TMP/$name/manifest" "$@" <<'EOF' || fail "cannot edit the manifest of $name"
import sys
path, what, args = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = open(path).read().splitlines()
key = lambda l: l.split(' ', 1)[0]
if what == 'drop':
    lines = [l for l in lines if key(l) not in args]
elif what == 'set':
    lines = [args[0] + ' ' + args[1] if key(l) == args[0] else l for l in lines]
elif what == 'command':
    out = []
    for l in lines:
        if key(l) == 'argc':
            out += ['argc %d' % len(args)] + ['arg ' + a.replace('\\', '\\\\') for a in args]
        elif key(l) != 'arg':
            out.append(l)
    lines = out
open(path, 'w').write('\n'.join(lines) + '\n')
EOF
}

# injects CMD...: run directly, CMD creates the marker (else the test below proves nothing).
injects() {
    rm -f "$MARK"
    run "$TMP/control" "$@"
    [ -e "$MARK" ] || { cat "$TMP/control.err" >&2; fail "control: '$*' did not create the marker"; }
    rm -f "$MARK"
}

# refused NAME PATTERN...: replay and replay --dry-run of $TMP/NAME print one line (matching
# every pattern), exit 2, print nothing on stdout (the program prints when it runs) and
# leave no marker.
refused() {
    name=$1
    shift
    rm -f "$MARK"
    for dry in replay dry; do
        out=$TMP/$name.$dry
        if [ $dry = dry ]; then
            run "$out" "$MPIRR" replay --dry-run "$TMP/$name"
        else
            run "$out" "$MPIRR" replay "$TMP/$name"
        fi
        [ "$STATUS" -eq 2 ] || { cat "$out.err" >&2; fail "$name ($dry): exit status $STATUS, expected 2"; }
        [ "$(wc -l <"$out.err")" -eq 1 ] || { cat "$out.err" >&2; fail "$name ($dry): not one line"; }
        [ ! -s "$out.out" ] || { cat "$out.out" >&2; fail "$name ($dry): something ran"; }
        [ ! -e "$MARK" ] || fail "$name ($dry): the injected command ran"
        [ ! -e "$TMP/$name/runtime-errors" ] || fail "$name ($dry): ranks ran"
        expect_error "$out" "$@"
    done
}

HINT="give the command explicitly: mpirr replay $TMP/[a-z0-9-]* -- COMMAND"

# a shell in place of the program under the launcher, then also without a fingerprint, then
# with the fingerprint forged to the shell's (the rank logs still name the real program), then
# with the logs forged too (the shell links no MPI library)
SHELLCMD=("${LAUNCH[@]}" /bin/sh -c "touch '$MARK'")
injects "${SHELLCMD[@]}"
edit shell rec command "${SHELLCMD[@]}"
refused shell "/bin/sh" "fingerprint" "not the recorded executable" "$HINT"
edit shell-nofp shell drop fingerprint
refused shell-nofp "no fingerprint" "$HINT"
SHFP=$(python3 -c '
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
print("%016x" % h)' /bin/sh)
edit shell-forged shell set fingerprint "$SHFP"
refused shell-forged "rank-00000.log" "$SHFP" "$HINT"
cp -r "$TMP/shell-forged" "$TMP/shell-forged-logs.src"
python3 - "$TMP/shell-forged-logs.src" "$SHFP" <<'EOF' || fail "cannot forge the log headers"
import glob, struct, sys
def fnv(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
    return h
for path in glob.glob(sys.argv[1] + '/rank-*.log'):
    b = bytearray(open(path, 'rb').read())
    b[32:40] = struct.pack('<Q', int(sys.argv[2], 16))   # executable fingerprint
    b[760:768] = struct.pack('<Q', fnv(bytes(b[:760])))  # header checksum
    open(path, 'wb').write(b)
EOF
edit shell-forged-logs shell-forged-logs.src drop nothing
refused shell-forged-logs "/bin/sh" "does not link an MPI library" "$HINT"

# the whole command a shell (no launcher), with and without a fingerprint
injects /bin/sh -c "touch '$MARK'"
edit singleton-shell rec command /bin/sh -c "touch '$MARK'"
refused singleton-shell "/bin/sh" "fingerprint" "$HINT"
edit singleton-shell-nofp singleton-shell drop fingerprint
refused singleton-shell-nofp "no fingerprint" "$HINT"

# the recorded program, but no fingerprint, or another one
edit nofp rec drop fingerprint
refused nofp "no fingerprint" "$HINT"
edit otherfp rec set fingerprint 0123456789abcdef
refused otherfp "rank-00000.log" "0123456789abcdef" "$HINT"

# a second program (MPMD)
MPMD=("${LAUNCH2[@]}" "$PROG" a : "${LAUNCH2[@]:1}" /usr/bin/touch "$MARK")
injects "${LAUNCH2[@]}" /bin/true : "${LAUNCH2[@]:1}" /usr/bin/touch "$MARK"
edit mpmd rec command "${MPMD[@]}"
refused mpmd "more than one program" "$HINT"

# a launcher from somewhere else than PATH: not even asked --version
mkdir -p "$TMP/otherbin"
printf '#!/bin/sh\ntouch "%s"\n' "$MARK" >"$TMP/otherbin/${LAUNCH[0]}"
chmod +x "$TMP/otherbin/${LAUNCH[0]}"
edit elsewhere rec command "$TMP/otherbin/${LAUNCH[0]}" "${LAUNCH[@]:1}" "$PROG" a
refused elsewhere "otherbin/${LAUNCH[0]}" "not the one your PATH finds" "$HINT"

# an option mpirr does not know
edit unknown rec command "${LAUNCH[0]}" --frobnicate "${LAUNCH[@]:1}" "$PROG" a
refused unknown "'--frobnicate'" "not know to be harmless" "$HINT"

# no command at all
edit noargs rec drop arg argc
refused noargs "manifest" "command"
edit noargs-argc rec drop arg
refused noargs-argc "manifest" "arg"

# a relative working directory: replay would run the command wherever mpirr was started (a
# directory the attacker prepared, next to the recording); numbers that overflow or trail
# garbage are damage, not a clamped or truncated value
mkdir -p "$TMP/relcwd"
printf '#!/bin/sh\ntouch "%s"\n' "$MARK" >"$TMP/relcwd/$(basename "$PROG")"
chmod +x "$TMP/relcwd/$(basename "$PROG")"
(cd "$TMP/relcwd" && injects "${LAUNCH[@]}" "./$(basename "$PROG")" a) || exit 1
edit relcwd rec set cwd relcwd
edit relcwd-cmd relcwd command "${LAUNCH[@]}" "./$(basename "$PROG")" a
(cd "$TMP" && refused relcwd-cmd "relcwd-cmd/manifest:[0-9]*: cwd 'relcwd' is not an absolute directory") || exit 1
edit hugeranks rec set ranks 99999999999999999999
refused hugeranks "hugeranks/manifest:[0-9]*: bad rank count '99999999999999999999'"
edit badstatus rec set exit-status 0x
refused badstatus "badstatus/manifest:[0-9]*: bad exit-status '0x'"

# the launchers' own ways of preloading or starting something else
echo "${LAUNCH[*]:1} /usr/bin/touch $MARK" >"$TMP/appfile"
if [ "$IMPL" = openmpi ]; then
    injects "${LAUNCH[@]}" -x LD_PRELOAD="$MARKLIB" /bin/true
    edit preload rec command "${LAUNCH[@]}" -x LD_PRELOAD="$MARKLIB" "$PROG" a
    refused preload "'-x LD_PRELOAD=$MARKLIB'" "load code" "$HINT"
    edit libpath rec command "${LAUNCH[@]}" -x LD_LIBRARY_PATH="$TMP" "$PROG" a
    refused libpath "LD_LIBRARY_PATH" "$HINT"
    edit prefix rec command "${LAUNCH[0]}" --prefix "$TMP" "${LAUNCH[@]:1}" "$PROG" a
    refused prefix "'--prefix $TMP'" "$HINT"
    injects "${LAUNCH[0]}" --app "$TMP/appfile"
    edit app rec command "${LAUNCH[0]}" --app "$TMP/appfile"
    refused app "'--app $TMP/appfile'" "$HINT"
    edit mca rec command "${LAUNCH[@]}" --mca plm_rsh_agent /bin/sh "$PROG" a
    refused mca "plm_rsh_agent" "MCA parameter" "$HINT"
else
    injects "${LAUNCH[@]}" -genv LD_PRELOAD "$MARKLIB" /bin/true
    edit preload rec command "${LAUNCH[0]}" -genv LD_PRELOAD "$MARKLIB" "${LAUNCH[@]:1}" "$PROG" a
    refused preload "'-genv LD_PRELOAD $MARKLIB'" "load code" "$HINT"
    edit envpreload rec command "${LAUNCH[@]}" -env LD_PRELOAD "$MARKLIB" "$PROG" a
    refused envpreload "'-env LD_PRELOAD $MARKLIB'" "$HINT"
    injects "${LAUNCH[0]}" -configfile "$TMP/appfile"
    edit configfile rec command "${LAUNCH[0]}" -configfile "$TMP/appfile"
    refused configfile "'-configfile $TMP/appfile'" "$HINT"
    edit bootstrap rec command "${LAUNCH[0]}" -bootstrap-exec /bin/sh "${LAUNCH[@]:1}" "$PROG" a
    refused bootstrap "-bootstrap-exec" "$HINT"
fi
echo "ok: every edited manifest refused in one line, nothing ran"

# harmless options pass: placement, binding, a variable for the program
if [ "$IMPL" = openmpi ]; then
    edit harmless rec command "${LAUNCH[@]}" --bind-to none -x OMP_NUM_THREADS=1 "$PROG" a
else
    edit harmless rec command "${LAUNCH[@]}" -bind-to none -genv OMP_NUM_THREADS 1 "$PROG" a
fi
run "$TMP/harmless" "$MPIRR" replay "$TMP/harmless"
[ "$STATUS" -eq 0 ] && cmp -s "$TMP/r.out" "$TMP/harmless.out" ||
    { cat "$TMP/harmless.err" >&2; fail "a manifest with harmless options does not replay"; }

# a cluster's options pass: network interfaces (loopback, the one every host here has) and a
# host file in the recorded working directory, recorded and replayed for real; the replay
# runs by rank, wherever the host file puts them. A host file elsewhere or not a regular
# file, or a launch agent next to the interfaces, is still refused.
mkdir -p "$TMP/netcwd"
mkfifo "$TMP/netcwd/fifo"
if [ "$IMPL" = openmpi ]; then
    echo "localhost slots=$NP" >"$TMP/netcwd/hosts"
    NET=(--mca btl_tcp_if_include lo --mca oob_tcp_if_include lo --hostfile hosts)
    AGENT=(--mca plm_rsh_agent /bin/evil)
    HOSTFILE=--hostfile
else
    echo "localhost:$NP" >"$TMP/netcwd/hosts"
    NET=(-iface lo -f hosts)
    AGENT=(-bootstrap-exec /bin/evil)
    HOSTFILE=-f
fi
(cd "$TMP/netcwd" && run "$TMP/netr" "$MPIRR" record -o "$TMP/net" -- "${LAUNCH[0]}" "${NET[@]}" \
    "${LAUNCH[@]:1}" "$PROG" a) || exit 1
[ "$STATUS" -eq 0 ] || { cat "$TMP/netr.err" >&2; fail "recording with ${NET[*]} failed"; }
run "$TMP/netd" "$MPIRR" replay --dry-run "$TMP/net"
[ "$STATUS" -eq 0 ] && grep -qF -- "${NET[*]}" "$TMP/netd.out" ||
    { cat "$TMP/netd.out" "$TMP/netd.err" >&2; fail "replay --dry-run of a recording with ${NET[*]}"; }
run "$TMP/netp" "$MPIRR" replay "$TMP/net"
[ "$STATUS" -eq 0 ] && cmp -s "$TMP/netr.out" "$TMP/netp.out" ||
    { cat "$TMP/netp.err" >&2; fail "replay of a recording with ${NET[*]}"; }
echo "ok: recorded with ${NET[*]}, replayed from the manifest"
edit net-agent net command "${LAUNCH[0]}" "${NET[@]}" "${AGENT[@]}" "${LAUNCH[@]:1}" "$PROG" a
refused net-agent "'${AGENT[*]}'" "$HINT"
edit net-etc net command "${LAUNCH[0]}" "$HOSTFILE" /etc/hosts "${LAUNCH[@]:1}" "$PROG" a
refused net-etc "'$HOSTFILE /etc/hosts'" "host file that is not a regular file within the recorded working directory" "$HINT"
edit net-fifo net command "${LAUNCH[0]}" "$HOSTFILE" fifo "${LAUNCH[@]:1}" "$PROG" a
refused net-fifo "'$HOSTFILE fifo'" "host file" "$HINT"

# Slurm's srun, which is not installed here: a stand-in first in PATH that would leave the
# marker if run. A recorded srun line with node and task options passes and --dry-run prints
# it with the variables in one --export right before the program; an output file, a prolog or
# another rank count is refused; a command given after -- may write its output files.
mkdir -p "$TMP/slurmbin"
printf '#!/bin/sh\ntouch "%s"\n' "$MARK" >"$TMP/slurmbin/srun"
chmod +x "$TMP/slurmbin/srun"
(
    export PATH="$TMP/slurmbin:$PATH"
    expect_srun_dry() { # NAME REC: $TMP/NAME.out is srun's command with mpirr's --export
        [ "$STATUS" -eq 0 ] && [ ! -e "$MARK" ] &&
            grep -q -- " --export=ALL,MPIRR_MODE=replay,MPIRR_DIR=$2,.*LD_PRELOAD=[^ ]*libmpirr.so $PROG a\$" \
                "$TMP/$1.out" || { cat "$TMP/$1.out" "$TMP/$1.err" >&2; fail "$1: srun's dry run"; }
    }
    edit srun rec command srun -N 2 --ntasks-per-node=2 -p debug -w localhost --mpi=pmix \
        --export=ALL,OMP_NUM_THREADS=1 "$PROG" a
    run "$TMP/srund" "$MPIRR" replay --dry-run "$TMP/srun"
    expect_srun_dry srund "$TMP/srun"
    edit srun-out rec command srun -n 4 -o out.txt "$PROG" a
    refused srun-out "'-o out.txt'" "$HINT"
    edit srun-prolog rec command srun -n 4 --prolog=/bin/evil "$PROG" a
    refused srun-prolog "'--prolog=/bin/evil'" "$HINT"
    edit srun-ranks rec command srun -n 2 "$PROG" a
    refused srun-ranks "recorded with $NP ranks, the command starts 2 (-n 2)"
    run "$TMP/srung" "$MPIRR" replay --dry-run "$TMP/rec" -- srun -n "$NP" -o 'out.%t' "$PROG" a
    expect_srun_dry srung "$TMP/rec"
    echo "ok: srun: $(cut -c1-150 "$TMP/srung.out")..."
) || exit 1

# a log renamed to another rank's name
cp -r "$TMP/rec" "$TMP/swapped"
for ext in log tail; do
    mv "$TMP/swapped/rank-00001.$ext" "$TMP/swapped/x" && mv "$TMP/swapped/rank-00003.$ext" "$TMP/swapped/rank-00001.$ext" &&
        mv "$TMP/swapped/x" "$TMP/swapped/rank-00003.$ext"
done
run "$TMP/sw" "$MPIRR" replay "$TMP/swapped"
[ "$STATUS" -eq 2 ] || fail "swapped logs: exit status $STATUS, expected 2"
expect_error "$TMP/sw" "rank-00001.log" "rank 3"

# --dry-run: one line, nothing run or written; run by a shell, it replays the recording
dry_run_replays() {
    name=$1
    shift
    touch "$TMP/stamp"
    run "$TMP/$name" "$MPIRR" replay --dry-run "$@"
    [ "$STATUS" -eq 0 ] && [ ! -s "$TMP/$name.err" ] || { cat "$TMP/$name.err" >&2; fail "$name: failed"; }
    [ "$(wc -l <"$TMP/$name.out")" -eq 1 ] || fail "$name: not one line"
    sep='='
    [ "$IMPL" = mpich ] && sep=' ' # -genv NAME VALUE
    for want in "MPIRR_MODE${sep}replay" "MPIRR_DIR${sep}$TMP/rec" "LD_PRELOAD${sep}" "$PROG"; do
        grep -qF -- "$want" "$TMP/$name.out" || fail "$name: '$want' missing from $(cat "$TMP/$name.out")"
    done
    [ -z "$(find "$TMP/rec" -newer "$TMP/stamp")" ] || fail "$name: wrote into the recording"
    run "$TMP/$name.sh" bash -c "$(cat "$TMP/$name.out")"
    [ "$STATUS" -eq 0 ] && cmp -s "$TMP/r.out" "$TMP/$name.sh.out" ||
        { cat "$TMP/$name.sh.err" >&2; fail "$name: the printed command does not replay the recording"; }
    echo "ok: $name: $(cut -c1-150 "$TMP/$name.out")..."
}
dry_run_replays dry-recorded "$TMP/rec"
dry_run_replays dry-given "$TMP/rec" -- "${LAUNCH[@]}" "$PROG" a
# a singleton gets the variables in its environment: printed as env NAME=VALUE
run "$TMP/rs" "$MPIRR" record -o "$TMP/single" -- "$PROG" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/rs.err" >&2; fail "recording a singleton failed"; }
run "$TMP/ds" "$MPIRR" replay --dry-run "$TMP/single"
[ "$STATUS" -eq 0 ] && grep -q "^cd .* && env MPIRR_MODE=replay .*LD_PRELOAD=.* $PROG a\$" "$TMP/ds.out" ||
    { cat "$TMP/ds.out" "$TMP/ds.err" >&2; fail "singleton dry run"; }
run "$TMP/ds.sh" bash -c "$(cat "$TMP/ds.out")"
[ "$STATUS" -eq 0 ] && cmp -s "$TMP/rs.out" "$TMP/ds.sh.out" || fail "the printed singleton command does not replay"

# symlinks planted where a rank creates its files: not followed, one line, the run goes on
# (races mode only where the .pending file is planted: a rank that cannot create its log in
# races mode is not recorded and sends no timestamps, which its peers wait for)
for file in log tail pending events events.tail; do
    d=$TMP/planted-$file
    mkdir -p "$d"
    echo keep >"$TMP/target"
    ln -s "$TMP/target" "$d/rank-00000.$file"
    case $file in
    pending) extra=MPIRR_RECORD_MODE=races ;;
    events*) extra=MPIRR_EVENTS=1 ;;
    *) extra=MPIRR_WTIME=1 ;;
    esac
    mapfile -d '' opts < <(env_opts LD_PRELOAD="$RUNTIME" MPIRR_MODE=record MPIRR_DIR="$d" \
        MPIRR_ERRLOG="$d/runtime-errors" "$extra")
    run "$TMP/plant-$file" "${LAUNCH[0]}" "${opts[@]}" "${LAUNCH[@]:1}" "$PROG" a
    [ "$STATUS" -eq 0 ] || { cat "$TMP/plant-$file.err" >&2; fail "planted .$file: the run failed"; }
    [ "$(cat "$TMP/target")" = keep ] || fail "planted .$file: the symlink's target was written"
    [ -L "$d/rank-00000.$file" ] || fail "planted .$file: the symlink was replaced"
    [ "$(grep -c "rank-00000.$file: File exists" "$d/runtime-errors")" -eq 1 ] ||
        { cat "$d/runtime-errors" >&2; fail "planted .$file: no single line naming the file"; }
    echo "ok: planted .$file: $(cat "$d/runtime-errors")"
done
# record --force removes planted links (the links, not their targets) before the run
d=$TMP/planted-all
mkdir -p "$d"
echo keep >"$TMP/target"
for f in manifest manifest.tmp runtime-errors rank-00000.log rank-00000.tail rank-00000.pending \
    rank-00000.events rank-00000.events.tail; do
    ln -s "$TMP/target" "$d/$f"
done
run "$TMP/force" "$MPIRR" record --force --mode=races --events -o "$d" -- "${LAUNCH[@]}" "$PROG" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/force.err" >&2; fail "record --force over planted links failed"; }
[ "$(cat "$TMP/target")" = keep ] || fail "record --force: a planted link's target was written"
[ -z "$(find "$d" -type l)" ] || fail "record --force: links left in the recording"

# files follow the umask (a dying races-mode run with --events leaves every kind of file), and
# record writes nothing outside its directory
mkdir -p "$TMP/cwd"
cd "$TMP/cwd" || fail "cannot enter $TMP/cwd"
for mask in 077 022; do
    want=$(printf '%o' $((0666 & ~8#$mask)))
    touch "$TMP/stamp"
    umask $mask
    run "$TMP/um$mask" "$MPIRR" record --mode=races --events -o "$TMP/um$mask" -- "${LAUNCH[@]}" "$BIN/die" segv
    umask 022
    [ "$STATUS" -ne 0 ] || fail "umask $mask: die segv exited 0"
    for kind in manifest rank-00000.log rank-00000.tail rank-00000.pending rank-00000.events; do
        [ -e "$TMP/um$mask/$kind" ] || fail "umask $mask: no $kind"
    done
    for f in "$TMP/um$mask"/*; do
        [ "$(stat -c %a "$f")" = "$want" ] || fail "umask $mask: $f has mode $(stat -c %a "$f"), expected $want"
    done
    [ "$(stat -c %a "$TMP/um$mask")" = "$(printf '%o' $((0777 & ~8#$mask)))" ] || fail "umask $mask: directory mode"
    outside=$(find "$TMP" -mindepth 1 -newer "$TMP/stamp" -not -path "$TMP/um$mask*")
    [ -z "$outside" ] || fail "umask $mask: record wrote outside its directory: $outside"
    echo "ok: umask $mask: every file $want, nothing written outside $TMP/um$mask"
done
