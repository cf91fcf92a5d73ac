# Shared helpers for integration tests (sourced; bash).
#
# On source: a private temp dir $TEST_TMP (removed on exit) holding HOME,
# XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME and MIRAGE_CONFIG, so no test
# ever sees the developer's real config, data or cache.  Output is TAP-ish:
# "ok N - desc" per check, "not ok N - desc" and exit 1 on the first failure,
# "1..N" from done_testing.  Exit 77 (skip_all) marks the whole test skipped.
#
#   ok DESC                      record a passed check
#   fail DESC                    record a failed check, show the last run, exit 1
#   skip DESC                    record a skipped check
#   skip_all REASON              skip the whole test (exit 77)
#   assert_eq GOT WANT [DESC]
#   assert_ne GOT UNWANTED [DESC]
#   assert_contains FILE|STRING NEEDLE [DESC]      fixed-string match
#   assert_not_contains FILE|STRING NEEDLE [DESC]
#   run_capture CMD...           runs CMD; sets RUN_STATUS, RUN_STDOUT, RUN_STDERR
#                                (strings) and RUN_STDOUT_FILE, RUN_STDERR_FILE
#   done_testing                 prints the plan line

# shellcheck shell=bash disable=SC2034  # RUN_* are read by the sourcing test
set -u

TEST_N=0
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/mirage-test.XXXXXX") || exit 1
_test_cleanup() {
	# Tests may leave read-only directories behind (cache tests): make them removable.
	chmod -R u+w "$TEST_TMP" 2>/dev/null
	rm -rf "$TEST_TMP"
}
trap _test_cleanup EXIT

export HOME=$TEST_TMP/home
export XDG_CONFIG_HOME=$TEST_TMP/config
export XDG_DATA_HOME=$TEST_TMP/data
export XDG_CACHE_HOME=$TEST_TMP/cache
export MIRAGE_CONFIG=$XDG_CONFIG_HOME/mirage
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$MIRAGE_CONFIG"

RUN_STATUS=0
RUN_STDOUT=
RUN_STDERR=
RUN_STDOUT_FILE=$TEST_TMP/run.stdout
RUN_STDERR_FILE=$TEST_TMP/run.stderr

ok() {
	TEST_N=$((TEST_N + 1))
	echo "ok $TEST_N - $*"
}

skip() {
	TEST_N=$((TEST_N + 1))
	echo "ok $TEST_N # SKIP $*"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 77
}

fail() {
	TEST_N=$((TEST_N + 1))
	echo "not ok $TEST_N - $*"
	if [ -s "$RUN_STDOUT_FILE" ] || [ -s "$RUN_STDERR_FILE" ]; then
		echo "# last run: exit $RUN_STATUS"
		sed 's/^/# stdout: /' "$RUN_STDOUT_FILE" 2>/dev/null | head -40
		sed 's/^/# stderr: /' "$RUN_STDERR_FILE" 2>/dev/null | head -40
	fi
	exit 1
}

assert_eq() {
	if [ "$1" == "$2" ]; then
		ok "${3:-"'$1' == '$2'"}"
	else
		fail "${3:-assert_eq}: expected '$2', got '$1'"
	fi
}

assert_ne() {
	if [ "$1" != "$2" ]; then
		ok "${3:-"'$1' != '$2'"}"
	else
		fail "${3:-assert_ne}: did not expect '$2'"
	fi
}

# Haystack is a file when one exists at that path, else the string itself.
_contains() {
	if [ -f "$1" ]; then
		grep -qF -- "$2" "$1"
	else
		case "$1" in *"$2"*) return 0 ;; *) return 1 ;; esac
	fi
}

assert_contains() {
	if _contains "$1" "$2"; then
		ok "${3:-"contains '$2'"}"
	else
		fail "${3:-assert_contains}: '$2' not found"
	fi
}

assert_not_contains() {
	if _contains "$1" "$2"; then
		fail "${3:-assert_not_contains}: '$2' found"
	else
		ok "${3:-"does not contain '$2'"}"
	fi
}

run_capture() {
	"$@" >"$RUN_STDOUT_FILE" 2>"$RUN_STDERR_FILE"
	RUN_STATUS=$?
	RUN_STDOUT=$(cat "$RUN_STDOUT_FILE")
	RUN_STDERR=$(cat "$RUN_STDERR_FILE")
	return 0
}

done_testing() {
	echo "1..$TEST_N"
}

# golden_check LIST KEY ROWS DESC: the lines of LIST that start with "KEY " are exactly the
# file ROWS (each line "KEY <what> <sha256>").  Several tests share one LIST, each its own
# keys.  A LIST whose first line is "# toolchain: T" holds bytes that depend on the compiler
# that built mirage (the raiser's IR follows C's unspecified argument order, and LLVM's output
# can follow the IR's order): it is checked only by a build of that toolchain
# ($MIRAGE_TOOLCHAIN, set by tests/CMakeLists.txt).  With MIRAGE_GOLDEN_UPDATE=1 the test
# writes its rows into LIST instead (under a lock, since the tests run in parallel); the
# commit that does so says why.
golden_check() {
	local list=$1 key=$2 rows=$3 desc=$4 bound
	bound=$(sed -n '1s/^# toolchain: //p' "$list" 2>/dev/null)
	if [ -n "${MIRAGE_GOLDEN_UPDATE:-}" ]; then
		(
			flock 9
			{
				[ -z "$bound" ] || echo "# toolchain: $MIRAGE_TOOLCHAIN"
				awk -v k="$key " 'index($0, k) == 1 || /^# toolchain: / { next } 1' "$list" 2>/dev/null |
					cat - "$rows" | LC_ALL=C sort
			} >"$list.new.$$" && mv "$list.new.$$" "$list"
		) 9>"$MIRAGE_BUILD/golden.lock"
		ok "$desc: updated $(basename "$list")"
		return
	fi
	if [ -n "$bound" ] && [ "$bound" != "$MIRAGE_TOOLCHAIN" ]; then
		skip "$desc: $(basename "$list") is pinned for $bound, this build is $MIRAGE_TOOLCHAIN"
		return
	fi
	local want got
	want=$(awk -v k="$key " 'index($0, k) == 1' "$list" 2>/dev/null | LC_ALL=C sort)
	got=$(LC_ALL=C sort "$rows")
	[ -n "$want" ] || fail "$desc: $(basename "$list") has no '$key' lines (MIRAGE_GOLDEN_UPDATE=1 writes them)"
	assert_eq "$got" "$want" "$desc, as $(basename "$list") pins"
}
