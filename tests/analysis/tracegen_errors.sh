#!/bin/sh
# tracegen_errors.sh TRACEGEN: a bad script is one line on stderr naming SCRIPT:LINE and exit
# status 2, and writes no trace; a good one with the same lines fixed is accepted.
TG=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/mpirr-tracegen-XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
fails=0
# bad LINE TEXT: the script TEXT (printf format) must fail at line LINE
bad() {
    printf "$2" > "$T/s.trace"
    "$TG" "$T/s.trace" "$T/out" > /dev/null 2> "$T/err"
    rc=$?
    lines=$(wc -l < "$T/err")
    if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q "^$T/s.trace:$1: " "$T/err" || [ -e "$T/out" ]; then
        echo "FAIL: expected one line '$T/s.trace:$1: ...' and exit 2 for: $2"
        echo "  got exit $rc: $(cat "$T/err")"
        fails=$((fails + 1))
    fi
    rm -rf "$T/out"
}
bad 1 '0: send 1 tag=1\n'
bad 2 'ranks 2\n0: send 2 tag=1\n'
bad 2 'ranks 2\n1: recv any tag=1\n'
bad 2 'ranks 2\n1: recv 0 tag=any\n'
bad 3 '# x\nranks 2\n0: frobnicate\n'
bad 2 'ranks 2\n0: wait req=a\n'
bad 3 'ranks 2\n0: isend 1 tag=1 req=a\n0: isend 1 tag=2 req=a\n'
bad 3 'ranks 2\n0: isend 1 tag=1 req=a\n0: wait req=a got=1\n'
bad 4 'ranks 2\n0: irecv any tag=1 req=a\n0: irecv 1 tag=2 req=b\n0: waitall req=a,b got=1\n'
bad 3 'ranks 2\n0: send 1 tag=1 @x\n1: recv 0 tag=1 @x\n'
bad 2 'ranks 2\n*: barrier @b\n'
bad 2 'ranks 2\n0: send 1 tag=1 comm=nope\n'
bad 3 'ranks 3\ncomm c = 0,1\n2: send 0 tag=1 comm=c\n'
bad 2 'ranks 2\n0: send 1 tag=1 color=3\n'
bad 2 'ranks 2\ncomm c = 0,0\n'
bad 2 'ranks 2\n0: recv 1 tag=1 none\n'
bad 1 ''
printf 'ranks 2\n0: send 1 tag=1 @a\n1: recv any tag=1 got=0 @b\n' > "$T/ok.trace"
if ! "$TG" --labels "$T/ok.trace" "$T/out" > "$T/labels" 2> "$T/err" || [ -s "$T/err" ] ||
    [ "$(cat "$T/labels")" != "$(printf 'a 0 2\nb 1 2')" ] || [ ! -f "$T/out/rank-00001.events" ]; then
    echo "FAIL: a good script: $(cat "$T/err") labels: $(cat "$T/labels")"
    fails=$((fails + 1))
fi
[ $fails -eq 0 ] && echo "ok: tracegen errors" || exit 1
