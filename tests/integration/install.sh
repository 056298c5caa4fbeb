#!/bin/bash
# install.sh BUILD_DIR IMPL: `make install PREFIX=...` yields a working mpirr: the installed CLI
# finds the installed runtime, its help matches the docs, it records and replays; and a program
# linked with -lmpirr (from the installed pkg-config file) is recorded without LD_PRELOAD.
. "$(dirname "$0")/lib.sh"
BUILD=$1 IMPL=$2 NP=4
SRC=$(cd "$(dirname "$0")/../.." && pwd)
read -r -a LAUNCH <<<"$(launcher "$IMPL" "$NP")"
P=$TMP/prefix
cmake --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log" >&2; fail "cmake --install failed"; }
MPIRR=$P/bin/mpirr
[ -x "$MPIRR" ] || fail "no $MPIRR after install"
"$MPIRR" help record | cmp -s - "$SRC/docs/cli/record.md" || fail "installed 'mpirr help record' differs from docs/cli/record.md"
[ -f "$P/include/mpirr.h" ] || fail "mpirr.h not installed"
# the topics: every docs/*.md is installed, listed by `mpirr help` and printed by `mpirr help NAME.md`
for doc in "$SRC"/docs/*.md; do
    name=$(basename "$doc" .md)
    cmp -s "$doc" "$P/share/doc/mpirr/$name.md" || fail "docs/$name.md is not installed in share/doc/mpirr"
    "$MPIRR" help "$name.md" | cmp -s - "$doc" || fail "'mpirr help $name.md' differs from docs/$name.md"
    "$MPIRR" help | grep -Eq "^    $name(\.md)? " || fail "'mpirr help' does not list the topic $name"
done
"$MPIRR" help runtime | cmp -s - "$SRC/docs/runtime.md" || fail "'mpirr help runtime' differs from docs/runtime.md"

# the installed CLI records and replays
run "$TMP/r" "$MPIRR" record -o "$TMP/rec" -- "${LAUNCH[@]}" "$BUILD/tests/integration/$IMPL/diverge" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/r.err" >&2; fail "installed mpirr record failed"; }
run "$TMP/p" "$MPIRR" replay "$TMP/rec"
[ "$STATUS" -eq 0 ] && same_output "$TMP/r.out" "$TMP/p.out" || fail "installed mpirr replay failed"

# link-time interposition: -lmpirr before the MPI library, no LD_PRELOAD
pc=$(find "$P" -name "mpirr-$IMPL.pc" | head -1)
[ -n "$pc" ] || fail "mpirr-$IMPL.pc not installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
! pkg-config --libs "mpirr-$IMPL" | grep -q '//' || fail "mpirr-$IMPL.pc: a // in $(pkg-config --libs "mpirr-$IMPL")"
"mpicc.$IMPL" -o "$TMP/linked" "$SRC/tests/integration/diverge.c" $(pkg-config --cflags --libs "mpirr-$IMPL") ||
    fail "cannot link a program with pkg-config mpirr-$IMPL"
if [ "$IMPL" = openmpi ]; then
    envopts=(-x MPIRR_MODE=record -x MPIRR_DIR="$TMP/linked-rec")
else
    envopts=(-genv MPIRR_MODE record -genv MPIRR_DIR "$TMP/linked-rec")
fi
mkdir -p "$TMP/linked-rec"
run "$TMP/l" "${LAUNCH[@]}" "${envopts[@]}" "$TMP/linked" a
[ "$STATUS" -eq 0 ] || { cat "$TMP/l.err" >&2; fail "the -lmpirr program failed"; }
n=$(ls "$TMP"/linked-rec/rank-*.log 2>/dev/null | wc -l)
[ "$n" -eq "$NP" ] || fail "the -lmpirr program left $n rank logs, expected $NP"
echo "ok: installed CLI records and replays; -lmpirr records without LD_PRELOAD"
