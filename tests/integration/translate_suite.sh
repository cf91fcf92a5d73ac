#!/usr/bin/env bash
# Every kernel object of the suite (tests/kernels, gfx1250 at -$OPT) translated for $TARGET
# (docs/translate.md), each output judged by LLVM's tools: `llvm-readelf-22 -a` without a
# warning, `llvm-objdump-22 -d --mcpu=$TARGET` decoding all of .text, the notes giving
# `.wavefront_size: 64` and the source's `.kernarg_segment_size` per kernel, and the same bytes
# from a second run.  Which kernels translate and which refuse (and why) is pinned by
# translate_suite.expect; the summary is in $TEST_TMP/summary.tsv.
# shellcheck source=lib.sh
source "$TEST_LIB"

drive=$TEST_TOOLS/translate_drive
lib=$MIRAGE_BUILD/lib/mirage/libmirage_translate.so
expect=$MIRAGE_SRC/tests/integration/translate_suite.expect
cd "$TEST_TMP" || exit 1
: >summary.tsv

# notes FILE KEY: the values of KEY in FILE's metadata note, one a line.
notes() {
	"$LLVM_READELF" --notes "$1" | sed -n "s/^ *-\{0,1\} *$2: *//p"
}

objects=("$MIRAGE_BUILD/tests/kernels/gfx1250/$OPT"/*.co)
[ -f "${objects[0]}" ] || fail "the suite's objects are built in $MIRAGE_BUILD/tests/kernels"
for src in "${objects[@]}"; do
	k=$(basename "$src" .co)
	run_capture "$drive" "$lib" "$src" "$TARGET" "$k.co" "$k.tsv"
	case $RUN_STATUS in
	0 | 1) ;;
	*) fail "$k: translate_object fails on the object: $RUN_STDERR" ;;
	esac
	while IFS=$'\t' read -r name status reason _; do
		printf '%s\t%s\t%s\t%s\t%s\n' "$OPT" "$k" "$name" "$TARGET" \
			"$(case $status in translated | whole-wave) echo "$status" ;; *) echo "$reason" ;; esac)" >>summary.tsv
	done <"$k.tsv"
	[ "$RUN_STATUS" = 0 ] || continue

	run_capture "$LLVM_READELF" -a "$k.co"
	assert_eq "$RUN_STATUS" 0 "$k: llvm-readelf -a reads it"
	assert_eq "$RUN_STDERR" "" "$k: llvm-readelf -a warns of nothing"
	assert_not_contains "$RUN_STDOUT" "warning" "$k: no warning in llvm-readelf -a"
	run_capture "$LLVM_OBJDUMP" -d --mcpu="$TARGET" "$k.co"
	assert_eq "$RUN_STATUS$RUN_STDERR" 0 "$k: llvm-objdump -d --mcpu=$TARGET decodes it"
	assert_not_contains "$RUN_STDOUT" "<unknown>" "$k: every instruction of .text decodes"
	assert_contains "$(notes "$k.co" .wavefront_size | sort -u)" 64 "$k: .wavefront_size: 64"
	assert_eq "$(notes "$k.co" .wavefront_size | sort -u)" 64 "$k: every kernel is wave64"
	assert_eq "$(notes "$k.co" .kernarg_segment_size)" "$(notes "$src" .kernarg_segment_size)" \
		"$k: .kernarg_segment_size as the source's"
	assert_eq "$(notes "$k.co" .name)" "$(notes "$src" .name)" "$k: every kernel, by name"
	"$drive" "$lib" "$src" "$TARGET" "$k.again.co" "$k.again.tsv"
	cmp -s "$k.co" "$k.again.co" && ok "$k: the same bytes twice" || fail "$k: the same bytes twice"
	echo "translate $TARGET $OPT $k $(sha256sum <"$k.co" | cut -d' ' -f1)" >>golden.rows
done

# The translations byte for byte (tests/integration/translate_golden.list), the refused ones absent.
touch golden.rows
golden_check "$MIRAGE_SRC/tests/integration/translate_golden.list" "translate $TARGET $OPT" golden.rows \
	"every translation for $TARGET at -$OPT"

# The pinned results: every kernel of this level and target as translate_suite.expect says.
got=$(sort summary.tsv)
want=$(awk -v o="$OPT" -v t="$TARGET" '$1 == o && $4 == t' "$expect" | tr ' ' '\t' | sort)
assert_eq "$got" "$want" "results for -$OPT on $TARGET as translate_suite.expect pins them"
done_testing
