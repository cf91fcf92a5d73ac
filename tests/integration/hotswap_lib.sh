# Helpers for the hotswap_*.sh tests: a private HOME and data dir, command
# capture and assertions, and builders for tree archives (good, incomplete and
# malicious) made at test time from C and python3 sources, never checked in.
# shellcheck shell=bash
# lib.sh gives the private HOME/XDG_* dirs, run_capture, the assertions and TAP output.
# shellcheck source=lib.sh
source "${TEST_LIB:-$(dirname "${BASH_SOURCE[0]}")/lib.sh}"
set -u

: "${MIRAGE_BIN:?MIRAGE_BIN must point at the mirage binary}"

T=$(cd "$TEST_TMP" && pwd -P)
# Installed trees live in <data>/hotswap; lib.sh points XDG_DATA_HOME into $T.
unset MIRAGE_DATA MIRAGE_CACHE HOTSWAP_HOME LD_PRELOAD HSA_TOOLS_LIB
export XDG_DATA_HOME=$T/data # the same directory, spelled canonically
DATA=$XDG_DATA_HOME/mirage
# Tests talk to 127.0.0.1 only, never through a proxy.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY CURL_CA_BUNDLE
export no_proxy=127.0.0.1 NO_PROXY=127.0.0.1
export NO_COLOR=1
# No GPU: the host's real /sys must not leak in.
export MIRAGE_SYSFS_ROOT=$T/no-sysfs

CLEANUP_PIDS=""
_hotswap_cleanup() {
	for pid in $CLEANUP_PIDS; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	_test_cleanup
}
trap _hotswap_cleanup EXIT

# A relocated mirage: no build tree next to it, so only installed trees are found.
# It is laid out like an install prefix: install's download/extract module at lib/mirage.
: "${MIRAGE_BUILD:?MIRAGE_BUILD must point at the build tree}"
FETCH_SO=$MIRAGE_BUILD/lib/mirage/libmirage_fetch.so
mkdir -p "$T/prefix/opt/bin" "$T/prefix/opt/lib/mirage"
cp "$MIRAGE_BIN" "$T/prefix/opt/bin/mirage"
cp "$FETCH_SO" "$T/prefix/opt/lib/mirage/"
MIRAGE_EXE=$T/prefix/opt/bin/mirage

# mirage ARGS...: runs the binary under test; stdout in $OUT, stderr in $ERR, status in $RC.
mirage() {
	run_capture "$MIRAGE_EXE" "$@" </dev/null
	OUT=$RUN_STDOUT
	ERR=$RUN_STDERR
	RC=$RUN_STATUS
}
expect_rc() {
	assert_eq "$RC" "$1" "${2:-command}: exit $1"
}
expect_out() {
	assert_contains "$OUT" "$1" "${2:-stdout} has '$1'"
}
expect_err() {
	assert_contains "$ERR" "$1" "${2:-stderr} has '$1'"
}
# check CONDITION... DESC: runs the test command; ok when it succeeds.
check() {
	local desc=${*: -1}
	if "${@:1:$#-1}"; then ok "$desc"; else fail "$desc"; fi
}
# The installer's temp and trash directories under <data>/hotswap, space-separated.
dot_entries() {
	(
		shopt -s nullglob
		cd "$DATA/hotswap" 2>/dev/null || exit 0
		for f in .tmp-* .rm-*; do printf '%s ' "$f"; done
	)
}
# No tree is installed and no temp directory is left behind.
expect_nothing_installed() {
	local left
	left=$(ls -A "$DATA/hotswap" 2>/dev/null)
	assert_eq "$left" "" "${1:-}: nothing installed, no temp files left"
}
# expect_nothing_installed_but "A B" DESC: exactly trees A and B (glob order), and no temp directory.
expect_nothing_installed_but() {
	assert_eq "$(cd "$DATA/hotswap" && echo *) $(dot_entries)" "$1 " "$2: trees are $1, no temp files"
}
finish() {
	done_testing
	exit 0
}

# Stand-in libraries exporting the entry points discovery looks for in .dynsym.
CC=${CC:-cc}
mkdir -p "$T/so"
printf 'int OnLoad(void *t, unsigned long long v, unsigned long long n, const char *const *f)\n{ (void)t; (void)v; (void)n; (void)f; return 1; }\n' >"$T/so/intercept.c"
printf 'int hs_rewrite(void) { return 0; }\n' >"$T/so/rewrite.c"
printf 'const void *hsi_core_get_api(void) { return 0; }\n' >"$T/so/core.c"
$CC -shared -fPIC -o "$T/so/libhotswap_intercept.so" "$T/so/intercept.c" || exit 1
$CC -shared -fPIC -o "$T/so/libhotswap_intercept_core.so" "$T/so/core.c" || exit 1
$CC -shared -fPIC -o "$T/so/libhotswap_rewrite.so.0" "$T/so/rewrite.c" || exit 1

# make_tree DIR [incomplete|nocore]: a native tree (the rewriter reached through a relative
# symlink); incomplete leaves out the rewriter, nocore the intercept's core.
make_tree() {
	mkdir -p "$1/lib" "$1/runtime/hotswap_py"
	cp "$T/so/libhotswap_intercept.so" "$1/lib/"
	if [ "${2:-}" != nocore ]; then
		cp "$T/so/libhotswap_intercept_core.so" "$1/lib/"
	fi
	if [ "${2:-}" != incomplete ]; then
		cp "$T/so/libhotswap_rewrite.so.0" "$1/lib/"
		ln -s libhotswap_rewrite.so.0 "$1/lib/libhotswap_rewrite.so"
	fi
	echo "# stand-in" >"$1/runtime/hotswap_py/sitecustomize.py"
}

# make_tarball OUT DIR: OUT.tar.gz holding DIR's last component as its single top directory.
make_tarball() {
	tar -czf "$1" -C "$(dirname "$2")" "$(basename "$2")"
}

sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

# start_http DIR: serves DIR on 127.0.0.1 at a port the kernel picks; sets $PORT.
start_http() {
	(cd "$1" && exec python3 -u -m http.server 0 --bind 127.0.0.1) >"$T/http.log" 2>&1 &
	HTTP_PID=$!
	CLEANUP_PIDS="$CLEANUP_PIDS $HTTP_PID"
	PORT=
	for _ in $(seq 100); do
		PORT=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$T/http.log" | head -n1)
		[ -n "$PORT" ] && return 0
		sleep 0.1
	done
	echo "cannot start python3 -m http.server: $(cat "$T/http.log")" >&2
	exit 1
}

# start_server SCRIPT ARGS...: runs a python3 server script that prints its port first;
# sets $PORT once it has.
start_server() {
	local portfile
	portfile=$(mktemp "$T/port.XXXXXX")
	python3 -u "$@" >"$portfile" 2>>"$T/server.log" &
	CLEANUP_PIDS="$CLEANUP_PIDS $!"
	for _ in $(seq 100); do
		PORT=$(head -n1 "$portfile")
		[ -n "$PORT" ] && return 0
		sleep 0.1
	done
	echo "cannot start $1: $(cat "$T/server.log")" >&2
	exit 1
}
