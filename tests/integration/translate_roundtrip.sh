#!/usr/bin/env bash
# The round trip on the CPU (docs/translate.md): the suite's gfx1250 object of $KERNEL at -$OPT,
# translated for $TARGET by `mirage rewrite --target`, run by `mirage emulate` (the target's
# table, wave64) with the launch file $LAUNCH, gives byte for byte the output buffers of the
# gfx1250 original run with the same launch file (after llvm-readelf-22 finds it clean, for
# $TARGET, wave64, with the source's .args and kernarg size), and agrees with the host-C reference (32-wide
# sub-groups: the translation keeps the source's wave32 semantics), also under a shuffled
# schedule.  A kernel translate_suite.expect says is refused: the rewrite exits 1 naming the
# reason, and nothing else is checked.  A launch translate_roundtrip.expect lists fails at the
# stage it names with the message it gives; that is checked exactly, so a fix fails the test
# until the line is removed.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=emulate_lib.sh
source "$MIRAGE_SRC/tests/integration/emulate_lib.sh"

src=$MIRAGE_BUILD/tests/kernels/gfx1250/$OPT/$KERNEL.co
variant=$(basename "$LAUNCH" .json)
[ -f "$src" ] || fail "$src is built"
cd "$TEST_TMP" || exit 1

# The pinned expectations of this launch: the translator's result for the kernel it launches
# (an object may hold several), the known failure if any.
launched=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kernel"])' "$LAUNCH")
result=$(awk -v o="$OPT" -v k="$KERNEL" -v n="$launched" -v t="$TARGET" \
	'$1 == o && $2 == k && $3 == n && $4 == t { print $5 }' \
	"$MIRAGE_SRC/tests/integration/translate_suite.expect")
[ -n "$result" ] || fail "translate_suite.expect pins -$OPT $KERNEL $launched on $TARGET"
known=$(awk -v o="$OPT" -v v="$variant" -v t="$TARGET" \
	'$1 == o && $2 == v && $3 == t { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' \
	"$MIRAGE_SRC/tests/integration/translate_roundtrip.expect")
known_stage=${known%% *}
known_text=${known#* }

# stage NAME DESC: the check of stage NAME passed (RUN_STATUS 0) unless it is the known failure,
# whose message must then be the pinned one; the test ends there.
stage() {
	if [ "$known_stage" != "$1" ]; then
		assert_eq "$RUN_STATUS" 0 "$2"
		return
	fi
	[ "$RUN_STATUS" != 0 ] ||
		fail "$2 now: remove '$OPT $variant $TARGET $known' from translate_roundtrip.expect"
	assert_contains "$RUN_STDOUT"$'\n'"$RUN_STDERR" "$known_text" "known failure at $1: $known_text"
	done_testing
	exit 0
}

run_capture "$MIRAGE_BIN" rewrite "$src" -o "$KERNEL.$TARGET.co" --target "$TARGET"
if [ "$result" != translated ] && [ "$result" != whole-wave ]; then
	assert_eq "$RUN_STATUS" 1 "mirage rewrite refuses -$OPT $KERNEL for $TARGET"
	assert_contains "$RUN_STDERR" "kernel '$launched' is refused at 0x" "the refusal names the kernel"
	assert_contains "$RUN_STDERR" ": $result: " "the refusal gives the reason $result"
	[ ! -e "$KERNEL.$TARGET.co" ] || fail "a refused translation leaves no output"
	done_testing
	exit 0
fi
assert_eq "$RUN_STATUS" 0 "mirage rewrite translates -$OPT $KERNEL for $TARGET"
why=$(python3 "$MIRAGE_SRC/tests/integration/translate_judge.py" "$LLVM_READELF" \
	"$KERNEL.$TARGET.co" "$src" "$TARGET") || fail "the translation, judged by llvm-readelf-22: $why"
ok "llvm-readelf-22 clean, $TARGET e_flags, .wavefront_size 64, the source's .args and kernarg size"

emulate_object original "$src"
assert_eq "$RUN_STATUS" 0 "mirage emulate runs the gfx1250 original"
emulate_object translated "$KERNEL.$TARGET.co"
stage emulate "mirage emulate runs the $TARGET translation"

# Byte for byte, each output buffer (the stage's failure names the first that differs).
RUN_STATUS=0 RUN_STDOUT='' RUN_STDERR=''
for f in original/*.bin; do
	[ -e "$f" ] || fail "the launch has output buffers"
	if ! cmp -s "$f" "translated/${f#original/}"; then
		RUN_STATUS=1 RUN_STDOUT="${f#original/} differs" RUN_STDERR=''
		printf '%s\n' "$RUN_STDOUT" >"$RUN_STDOUT_FILE"
		: >"$RUN_STDERR_FILE"
		break
	fi
done
stage bytes "the translation gives every output buffer of the original, byte for byte"

host_reference host 32
run_capture "$KERNELS_BIN/kernel_compare" "$LAUNCH" "$MIRAGE_SRC/tests/kernels/check/$KERNEL.json" \
	host translated
stage reference "the translation agrees with host C on every output buffer"

emulate_object shuffled "$KERNEL.$TARGET.co" --schedule shuffle:12345
stage shuffle "mirage emulate --schedule shuffle:12345 runs the translation"
same_bytes translated shuffled "a shuffled schedule gives the same"
done_testing
