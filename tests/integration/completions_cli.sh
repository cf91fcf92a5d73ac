# `mirage completions` and the hidden `mirage __complete`: output, exit codes, and staying cheap.
source "$(dirname "$0")/completions_lib.sh"

run_capture "$MIRAGE_BIN" completions bash
assert_eq "$RUN_STATUS" 0 "completions bash exits 0"
assert_contains "$RUN_STDOUT" "complete -F _mirage mirage" "the bash script registers _mirage"
run_capture "$MIRAGE_BIN" completions zsh
assert_eq "$(head -1 "$RUN_STDOUT_FILE")" "#compdef mirage" "the zsh script starts with #compdef"
run_capture "$MIRAGE_BIN" completions fish
assert_contains "$RUN_STDOUT" "complete -c mirage" "the fish script uses complete -c mirage"
for sh in bash zsh fish; do
	"$MIRAGE_BIN" completions $sh >"$TEST_TMP/s"
	case $sh in
	bash) bash -n "$TEST_TMP/s" ;;
	zsh) ! command -v zsh >/dev/null || zsh -n "$TEST_TMP/s" ;;
	fish) ! command -v fish >/dev/null || fish --no-config -n "$TEST_TMP/s" ;;
	esac || fail "the $sh script does not parse"
	ok "the $sh script parses"
done

run_capture "$MIRAGE_BIN" --json completions bash
assert_eq "$RUN_STATUS" 0 "--json completions bash exits 0"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["shell"] == "bash" and "_mirage" in d["script"]' \
	"$RUN_STDOUT_FILE" || fail "--json does not give {shell, script}"
ok "--json gives {shell, script}"

run_capture "$MIRAGE_BIN" completions tcsh
assert_eq "$RUN_STATUS" 2 "an unknown shell is a usage error"
assert_contains "$RUN_STDERR" "unknown shell 'tcsh'"
assert_contains "$RUN_STDERR" "bash, zsh, fish" "the error lists the shells"
run_capture "$MIRAGE_BIN" completions
assert_eq "$RUN_STATUS" 2 "a missing shell is a usage error"
run_capture "$MIRAGE_BIN" completions bash zsh
assert_eq "$RUN_STATUS" 2 "two shells is a usage error"

# The hidden helper.
run_capture "$MIRAGE_BIN" --help
assert_not_contains "$RUN_STDOUT" "__complete" "--help does not list __complete"
run_capture "$MIRAGE_BIN" __complete profiles
assert_eq "$RUN_STATUS:$RUN_STDOUT" "0:" "no profiles yet: nothing, exit 0"
for p in beta alpha; do "$MIRAGE_BIN" profile create $p --emulator native >/dev/null || fail "create $p"; done
run_capture "$MIRAGE_BIN" __complete profiles
assert_eq "$RUN_STDOUT" "$(printf 'alpha\nbeta')" "__complete profiles lists the store, sorted"
MIRAGE_CONFIG=$TEST_TMP/elsewhere run_capture "$MIRAGE_BIN" __complete profiles
assert_eq "$RUN_STATUS:$RUN_STDOUT:$RUN_STDERR" "0::" "a missing config dir: nothing, silently"
run_capture "$MIRAGE_BIN" __complete gfx targets
assert_eq "$(echo $RUN_STDOUT)" "gfx942 gfx950 gfx1250 gfx1251" "__complete gfx targets: the HotSwap targets"
run_capture "$MIRAGE_BIN" __complete gfx sources
assert_contains "$RUN_STDOUT" "gfx90a" "__complete gfx sources: processors"
assert_not_contains "$RUN_STDOUT" "generic" "__complete gfx sources: no generic targets"
run_capture "$MIRAGE_BIN" __complete emulators
assert_eq "$(echo $RUN_STDOUT)" "hotswap native" "__complete emulators"
run_capture "$MIRAGE_BIN" __complete bogus
assert_eq "$RUN_STATUS" 2 "an unknown kind is a usage error"
assert_contains "$RUN_STDERR" "unknown completion kind 'bogus'"

# Cheap: it runs on every TAB, so no LLVM, no HotSwap libraries, no GPU scan.
if command -v strace >/dev/null && strace -f -qq -e trace=none true 2>/dev/null; then
	# LeakSanitizer cannot run under ptrace; leaks are the sanitizer tests' business, not this one's.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=%file -o "$TEST_TMP/trace" "$MIRAGE_BIN" __complete profiles >/dev/null ||
		fail "__complete profiles under strace"
	if grep -Ei 'llvm|libhotswap|/sys/|kfd|/dev/dri' "$TEST_TMP/trace"; then
		fail "__complete opened something expensive"
	fi
	ok "__complete profiles opens no LLVM, HotSwap library or GPU file"
else
	LD_DEBUG=libs "$MIRAGE_BIN" __complete profiles >/dev/null 2>"$TEST_TMP/ld"
	! grep -Ei 'llvm|libhotswap' "$TEST_TMP/ld" || fail "__complete loaded LLVM or a HotSwap library"
	ok "__complete profiles loads no LLVM or HotSwap library"
fi
done_testing
