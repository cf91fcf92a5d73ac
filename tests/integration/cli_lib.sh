# Helpers for tests of the mirage command line, on top of lib.sh: run the real
# binary with stdin closed, then check exit status and message in one call.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

: "${MIRAGE_BIN:?MIRAGE_BIN must point at the mirage binary}"
T=$TEST_TMP
OUT=$RUN_STDOUT_FILE
ERR=$RUN_STDERR_FILE
# Nothing of the developer's own setup may leak into a test.
unset MIRAGE_DATA MIRAGE_CACHE HOTSWAP_HOME LD_PRELOAD HSA_TOOLS_LIB ROCR_VISIBLE_DEVICES \
	HIP_VISIBLE_DEVICES
for v in $(env | sed -n 's/^\(HSA_HOTSWAP_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
# This build's own tree: discovery prefers <repo>/build/hotswap over it when both exist.
[ -f "$MIRAGE_BUILD/hotswap/lib/libhotswap_intercept.so" ] && export HOTSWAP_HOME="$MIRAGE_BUILD/hotswap"
# No GPUs unless a test builds a sysfs tree of its own.
export MIRAGE_SYSFS_ROOT="$T/no-sysfs" NO_COLOR=1

# run CMD...: stdin from $RUN_STDIN (default /dev/null); sets RC and the capture files.
run() {
	"$@" <"${RUN_STDIN:-/dev/null}" >"$OUT" 2>"$ERR"
	RUN_STATUS=$?
	RC=$RUN_STATUS
}

mirage() {
	run "$MIRAGE_BIN" "$@"
}

# check DESC STATUS [STDERR-SUBSTRING]
check() {
	[ "$RC" -eq "$2" ] || fail "$1: exit status $RC, expected $2"
	if [ $# -ge 3 ] && ! grep -qF -- "$3" "$ERR"; then
		fail "$1: stderr lacks: $3"
	fi
	ok "$1"
}

expect_out() {
	grep -qF -- "$1" "$OUT" || fail "stdout lacks: $1"
}

expect_err() {
	grep -qF -- "$1" "$ERR" || fail "stderr lacks: $1"
}

expect_file_has() {
	grep -qF -- "$2" "$1" || fail "$1 lacks: $2"
}

json_ok() {
	python3 -m json.tool "$1" >/dev/null 2>&1 || fail "not valid JSON: $1"
}

# json_get FILE EXPR: prints EXPR evaluated with d = the parsed document.
json_get() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
