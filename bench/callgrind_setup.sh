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
