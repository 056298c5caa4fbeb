# callgrind_setup.sh NAME BUILD [OLD_BUILD] (sourced): what the callgrind benches share: NEW and
# OLD (the builds), the launchers' environment, a scratch directory TMP removed at exit, and a
# clear stop without valgrind.
set -u
CG_NAME=$1
NEW=$2
OLD=${3:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d "/tmp/mpirr-$CG_NAME.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
command -v valgrind >/dev/null || { echo "$CG_NAME: needs valgrind" >&2; exit 1; }

# cg_lib_ir OUT [EXCLUDE_RE]: instructions of one callgrind output spent in libmpirr, self cost:
# the functions callgrind_annotate places in libmpirr.so, and the lines inlined into them from
# other files, which it lists as "file:function" without the object (with link-time
# optimization, most of a message's path). Those are told apart from other libraries' by their
# source file, one of mpirr's own (under src/). Functions or files matching EXCLUDE_RE are left
# out. Prints "libmpirr_Ir total_Ir".
cg_lib_ir() {
    callgrind_annotate --inclusive=no --threshold=100 "$1" 2>/dev/null | tr -d , | awk -v ex="${2:-^$}" '
        /PROGRAM TOTALS/ {total = $1; next}
        $2 !~ /^\(/ {next}
        {
            where = $0
            sub(/^ *[0-9]+ +\( *[0-9.]+%\) +/, "", where)
            if (where ~ /^=>/ || where ~ ex) next
            if (where ~ /libmpirr\.so\]$/ || (where !~ /\]$/ && where ~ /(^|\/)src\/(runtime|format)\//)) lib += $1
        }
        END {print lib + 0, total + 0}'
}
