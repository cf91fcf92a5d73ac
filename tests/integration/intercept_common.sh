# Set-up shared by the intercept tests (sourced after lib.sh): the stand-in
# runtime and client, the staged tree, fixtures, a private cache and record dir.

STANDIN=$MIRAGE_BUILD/tests/standin
CLIENT=$STANDIN/hsa_client
TREE=$MIRAGE_BUILD/hotswap
INTERCEPT=$TREE/lib/libhotswap_intercept.so
HELLO=$FIXTURES/hello.co
GFX942=$FIXTURES/gfx942.co
REC=$TEST_TMP/rec
CACHE=$TEST_TMP/hotswap-cache

# Nothing from the caller's environment may steer the intercept or the stand-in.
for v in $(env | sed -n 's/^\(HSA_HOTSWAP_[A-Z_]*\)=.*/\1/p; s/^\(STANDIN_[A-Z_]*\)=.*/\1/p'); do
	unset "$v"
done
unset HSA_TOOLS_LIB LD_PRELOAD
# This build's own tree for `mirage run`: discovery prefers <repo>/build/hotswap when both exist.
export HOTSWAP_HOME=$TREE
export HSA_HOTSWAP_CACHE_DIR=$CACHE
export STANDIN_RECORD_DIR=$REC

for f in "$CLIENT" "$INTERCEPT" "$HELLO" "$GFX942"; do
	[ -e "$f" ] || fail "missing build output '$f' (build the default targets first)"
done

# A fresh, empty record directory.
fresh_rec() {
	rm -rf "$REC"
	mkdir -p "$REC"
}

# Number of objects the stand-in loader received.
recorded() {
	find "$REC" -name 'load-*.co' | wc -l
}

# Asserts that FILE carries entry stubs in .hotswap.text, judged by LLVM's tools.
assert_has_stubs() {
	local dis=$TEST_TMP/dis.txt
	"$LLVM_READELF" -S "$1" >"$TEST_TMP/sections.txt" || fail "llvm-readelf -S '$1'"
	assert_contains "$TEST_TMP/sections.txt" ".hotswap.text" "${2:-}: .hotswap.text section"
	"$LLVM_OBJDUMP" -d --mcpu=gfx1250 --section=.hotswap.text "$1" >"$dis" ||
		fail "llvm-objdump -d '$1'"
	for insn in global_prefetch_b8 v_nop s_get_pc_i64 s_add_co_u32 s_add_co_ci_u32 s_set_pc_i64; do
		grep -q "^[[:space:]]*$insn" "$dis" || fail "${2:-}: entry stub lacks $insn"
	done
	ok "${2:-}: entry stub global_prefetch_b8 / v_nop / s_get_pc_i64 ... s_set_pc_i64"
}

# Asserts FILE is byte-identical to WANT.
assert_same_bytes() {
	if cmp -s "$1" "$2"; then
		ok "${3:-}: identical bytes"
	else
		fail "${3:-}: loaded bytes differ from '$2'"
	fi
}

# Lines of a captured stderr that match a fixed string.
count_lines() {
	grep -cF -- "$2" "$1" || true
}
