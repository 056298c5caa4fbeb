#!/bin/bash
# request_choice.sh MPIRR IMPL EXPLORE_BIN: which request a Waitany-family call returns, forced
# (issue 34). explore_waitany crashes only when rank 0's first MPI_Waitany/Testany/Waitsome/
# Testsome returns rank 2's request alone, which the token between its senders never lets happen
# natively. For each kind:
#  1. mpirr explore finds the crash within 4 runs by forcing 0:E=req:P (P: the Irecv from rank
#     2); run 1 took the native choice; the failing run's history says the call at E completed
#     that request; its recording replays 3 times under noise to the same crash and output.
# For send requests (explore_waitany sendany: MPI_Waitany on two MPI_Isends, the receive of the
# second posted only after the first arrived):
#  1b. explore finds the crash within 4 runs by forcing 0:E=req:P (P: the Isend to rank 2), and
#     the failing run's history says the Waitany at E completed it; 3 replays as recorded.
# For MPI_Waitany, on a native recording:
#  2. replay --flip 0:E=req:P does the same directly, and replays 3 times as recorded;
#  3. illegal flips are refused in one line each, exit status 2: an event that is no such call,
#     an event that posted no request, the request the call returned already, and a request
#     that cannot complete there (its message is sent only after rank 0's "go", after the call).
. "$(dirname "$0")/choices_lib.sh" "$@"
declare -A CALL=([waitany]=MPI_Waitany [testany]=MPI_Testany [waitsome]=MPI_Waitsome [testsome]=MPI_Testsome)

# irecv_from REC SRC: the event of rank 0's MPI_Irecv from SRC with tag SRC.
irecv_from() {
    "$MPIRR" events "$1" --rank 0 2>/dev/null | sed -n "s/^0:\([0-9]*\) MPI_Irecv comm=0 peer=$2 tag=$2 .*/\1/p"
}

# returned_alone REC EVENT CALL SRC: rank 0's event EVENT in REC is CALL and completed only the
# receive from SRC.
returned_alone() {
    local got
    got=$("$MPIRR" events "$1" --rank 0 2>/dev/null | grep "^0:$2 ")
    [[ $got =~ ^0:$2\ $3\ done=[0-9]+\(src=$4,tag=$4,got=4\)\  ]] ||
        fail "$1: rank 0's event $2 should be $3 completing rank $4's receive alone: $got"
}

# --- 1. explore, every kind ----------------------------------------------------------------------
for kind in waitany testany waitsome testsome; do
    D=$TMP/explore-$kind
    run "$D" "$MPIRR" explore --budget 4 -o "$D" -- "${L3[@]}" "$BIN/explore_waitany" "$kind"
    explore_crash_found "$kind" "$D" 'req:([0-9]+)'
    status=$STATUS_RUN event=$EVENT post=$VALUE rec=$REC line=$LINE
    [ "$post" = "$(irecv_from "$D/run-0001" 2)" ] || fail "$kind: forced req:$post, not the receive from rank 2"
    grep -qx "$kind first 1" "$D/run-0001/stdout" || fail "$kind: run 1 did not complete rank 1's request first: $(cat "$D/run-0001/stdout")"
    grep -qx "$kind first 2" "$rec/stdout" || fail "$kind: the failing run printed $(cat "$rec/stdout")"
    returned_alone "$rec" "$event" "${CALL[$kind]}" 2
    replays3 "$kind" "$rec" "$status" "$rec/stdout"
    echo "ok: $kind: explore forced 0:$event=req:$post ($line); 3 replays crash as recorded"
done

# --- 1b. explore, send requests ------------------------------------------------------------------
D=$TMP/explore-sendany
run "$D" "$MPIRR" explore --budget 4 -o "$D" -- "${L3[@]}" "$BIN/explore_waitany" sendany
explore_crash_found sendany "$D" 'req:([0-9]+)'
status=$STATUS_RUN event=$EVENT post=$VALUE rec=$REC line=$LINE
isend=$("$MPIRR" events "$D/run-0001" --rank 0 2>/dev/null | sed -n 's/^0:\([0-9]*\) MPI_Isend comm=0 peer=2 tag=2 .*/\1/p')
[ -n "$isend" ] && [ "$post" = "$isend" ] || fail "sendany: forced req:$post, not the Isend to rank 2 (${isend:-none})"
grep -qx "sendany first 1" "$D/run-0001/stdout" || fail "sendany: run 1 did not complete the send to rank 1 first: $(cat "$D/run-0001/stdout")"
grep -qx "sendany first 2" "$rec/stdout" || fail "sendany: the failing run printed $(cat "$rec/stdout")"
"$MPIRR" events "$rec" --rank 0 2>/dev/null | grep -q "^0:$event MPI_Waitany done=1 " ||
    fail "sendany: rank 0's event $event should be MPI_Waitany returning index 1: $("$MPIRR" events "$rec" --rank 0 2>/dev/null | grep "^0:$event ")"
replays3 sendany "$rec" "$status" "$rec/stdout"
echo "ok: sendany: explore forced 0:$event=req:$post ($line); 3 replays crash as recorded"

# --- 2-3. replay --flip on a native recording ----------------------------------------------------
P=$TMP/native
run "$P" "$MPIRR" record --events -o "$P" -- "${L3[@]}" "$BIN/explore_waitany" waitany
[ "$STATUS" -eq 0 ] || { cat "$P.err" >&2; fail "the native recording exited $STATUS"; }
grep -qx "waitany first 1" "$P.out" || fail "the native run printed $(cat "$P.out")"
event=$("$MPIRR" events "$P" --rank 0 | sed -n 's/^0:\([0-9]*\) MPI_Waitany .*/\1/p' | head -1)
one=$(irecv_from "$P" 1) two=$(irecv_from "$P" 2)
late=$("$MPIRR" events "$P" --rank 0 | sed -n 's/^0:\([0-9]*\) MPI_Irecv comm=0 peer=1 tag=4 .*/\1/p')
[ -n "$event" ] && [ -n "$one" ] && [ -n "$two" ] && [ -n "$late" ] || fail "the native history lacks the calls: $("$MPIRR" events "$P" --rank 0)"
F=$TMP/flip
run "$F" "$MPIRR" replay "$P" --flip "0:$event=req:$two" -o "$F"
[ "$STATUS" -ne 0 ] || fail "the flipped run did not crash"
grep -q "^mpirr: flipped rank 0's event $event (MPI_Waitany) to return the request posted at its event $two (the recording had the one posted at event $one)" "$F.err" ||
    { cat "$F.err" >&2; fail "no flip line"; }
grep -qx "waitany first 2" "$F.out" || fail "the flipped run printed $(cat "$F.out")"
returned_alone "$F" "$event" MPI_Waitany 2
replays3 flip "$F" "$STATUS" "$F.out"
echo "ok: --flip 0:$event=req:$two returned rank 2's request first; 3 replays exact"

bad() { refused "$1" "$2" "$P" "$3"; } # NAME PATTERN SPEC
bad notany "is not an MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome" "0:$one=req:$two"
bad norequest "that event posted no request" "0:$event=req:1"
bad returned "returned that request (alone) in the recording already" "0:$event=req:$one"
bad cannot "its message's send (rank 1's event [0-9]*) happens only after that event" "0:$event=req:$late"
bad syntax "needs RANK:EVENT=SOURCE (e.g. 1:226=3) or RANK:EVENT=req:POST" "0:$event=req:x"
echo "ok: request choices on $IMPL"
