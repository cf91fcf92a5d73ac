# Text from outside reaches stderr escaped: a kernel name holding ESC c (a terminal reset),
# a tab and BEL (hostile_name.co, whose rewrite fails quoting it), a file path holding a
# newline and an escape, a cache root path the same.  Every line stays one line, and no
# control byte reaches the terminal.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_TOOLS_LIB=$INTERCEPT
unset STANDIN_RECORD_DIR
obj=$FIXTURES/hostile_name.co
sha8=$(sha256sum "$obj" | cut -c1-8)
name='evil\x1bcreset\tbell\x07'

# assert_no_controls DESC: the captured stderr holds no control byte but the line ends.
assert_no_controls() {
	if LC_ALL=C grep -q '[[:cntrl:]]' "$RUN_STDERR_FILE"; then
		fail "$1: a control character reached stderr: $(cat -A "$RUN_STDERR_FILE")"
	else
		ok "$1: no control character on stderr"
	fi
}

run_capture env HSA_HOTSWAP_CACHE_DEBUG=1 "$CLIENT" --file --repeat 3 "$obj"
assert_eq "$RUN_STATUS" 0 "hostile kernel name: the load succeeds (the original)"
assert_eq "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx1250) kernels=0 $sha8 (rewrite failed: kernel '$name': .sgpr_count 109 exceeds the 108 SGPRs (s0-s105 and vcc) of gfx1250; no scratch pair for the entry stub (ERROR))
hotswap: rewrite of file://$obj failed: kernel '$name': .sgpr_count 109 exceeds the 108 SGPRs (s0-s105 and vcc) of gfx1250; no scratch pair for the entry stub (ERROR); loading the original
hotswap_cache: failed (gfx1250 -> gfx1250) kernels=0 $sha8 (rewrite failed earlier in this process: kernel '$name': .sgpr_count 109 exceeds the 108 SGPRs (s0-s105 and vcc) of gfx1250; no scratch pair for the entry stub (ERROR))
hotswap_cache: failed (gfx1250 -> gfx1250) kernels=0 $sha8 (rewrite failed earlier in this process: kernel '$name': .sgpr_count 109 exceeds the 108 SGPRs (s0-s105 and vcc) of gfx1250; no scratch pair for the entry stub (ERROR))" \
	"hostile kernel name: the debug lines and the one warning show it escaped"
assert_no_controls "hostile kernel name"

# Verbose: the rewriter's own log lines and the intercept's decision lines quote it too.
run_capture env HSA_HOTSWAP_VERBOSE=1 "$CLIENT" --repeat 2 "$obj"
assert_contains "$RUN_STDERR" "(remembered, not retried)" "verbose: the second load says remembered"
assert_contains "$RUN_STDERR" "kernel '$name'" "verbose: escaped"
assert_no_controls "verbose, hostile kernel name"

# A path with a newline and an escape, for the object and for the cache root.
odd=$TEST_TMP/$'odd\nname\e]0;x\a'
mkdir -p "$odd"
cp "$FIXTURES/sgpr109.co" "$odd/k.co"
run_capture env HSA_HOTSWAP_VERBOSE=1 HSA_HOTSWAP_CACHE_DIR="$odd/cache" HSA_HOTSWAP_CACHE_DEBUG=1 \
	"$CLIENT" --file "$odd/k.co" "$HELLO"
assert_eq "$RUN_STATUS" 0 "odd paths: the loads succeed"
assert_contains "$RUN_STDERR" "hotswap: rewrite of file://$TEST_TMP/odd\\nname\\x1b]0;x\\x07/k.co failed: " \
	"odd object path: escaped in the warning"
assert_no_controls "odd paths"
chmod 0777 "$odd/cache"
run_capture env HSA_HOTSWAP_VERBOSE=1 HSA_HOTSWAP_CACHE_DIR="$odd/cache" "$CLIENT" "$HELLO"
assert_contains "$RUN_STDERR" "hotswap: translation cache not used: " "untrusted odd root: said"
assert_contains "$RUN_STDERR" "odd\\nname\\x1b]0;x\\x07/cache" "untrusted odd root: its path escaped"
assert_no_controls "untrusted odd root"
done_testing
