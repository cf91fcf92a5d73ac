# Helpers for the translation route's tests (sourced after lib.sh): a copy of the staged tree
# whose translator is the test double (tests/standin/translate_double.c), and the judge.
# shellcheck shell=bash

XLAT_SRC=$FIXTURES/xlat_src.co
XLAT_OUT=$FIXTURES/xlat_gfx942.co
DOUBLE=$MIRAGE_BUILD/tests/standin/translate_double/libmirage_translate.so
JUDGE=$MIRAGE_SRC/tests/integration/translate_judge.py
for f in "$XLAT_SRC" "$XLAT_OUT" "$DOUBLE"; do
	[ -e "$f" ] || fail "missing build output '$f' (build the default targets first)"
done
# What the double hands out: the prepared gfx942 object, as the kernels of xlat_src.co.
export MIRAGE_TEST_TRANSLATE_OUTPUT=$XLAT_OUT MIRAGE_TEST_TRANSLATE_KERNELS=xk,xk2
unset MIRAGE_TEST_TRANSLATE_REFUSE MIRAGE_TEST_TRANSLATE_ERROR MIRAGE_TEST_TRANSLATE_BUILD \
	MIRAGE_TEST_TRANSLATE_LOG

# stage_double_tree DIR: the staged tree copied to DIR, the double in its translator's place.
stage_double_tree() {
	mkdir -p "$(dirname "$1")"
	cp -a "$MIRAGE_BUILD/hotswap" "$1" || fail "cannot copy the staged tree"
	cp "$DOUBLE" "$1/lib/libmirage_translate.so" || fail "cannot install the test double"
}

# judge_translated OUT SRC TARGET DESC: OUT is SRC translated for TARGET, by LLVM's tools.
judge_translated() {
	local why
	why=$(python3 "$JUDGE" "$LLVM_READELF" "$1" "$2" "$3") ||
		fail "$4: $why"
	ok "$4: llvm-readelf-22 clean, $3 e_flags, .wavefront_size 64, the source's .args"
}
