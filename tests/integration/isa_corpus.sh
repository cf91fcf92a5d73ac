#!/usr/bin/env bash
# Decodes every instruction of every test object and compares size, mnemonic and registers with
# llvm-objdump-22 -d: the build's gfx1250 fixtures, examples and small bench object,
# tests/isa/forms.s, and the OpenCL C kernels of tests/isa/ and tests/kernels/ compiled by
# clang-22 for gfx1250 at -O0, -O2 and -O3.
# Reports the share decoded as known rows; fails on any disagreement for a known row.
source "$TEST_LIB"

[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"

objs=()
# Every gfx1250 object the build makes: fixtures, examples, the small bench object.
for co in "$FIXTURES"/*.co "$MIRAGE_BUILD"/examples/*.co "$MIRAGE_BUILD"/bench/rewrite/kernels64.co; do
	[ -f "$co" ] || continue
	# Only gfx1250-family objects: the gfx942 fixture is another ISA (its table comes later).
	"$LLVM_READELF" -h "$co" 2>/dev/null | grep -Eq 'Flags:.*gfx125[0-9]' && objs+=("$co")
done
[ "${#objs[@]}" -gt 0 ] || fail "no gfx1250 fixtures under $FIXTURES"
ok "${#objs[@]} gfx1250 objects of the build"

"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu=gfx1250 -filetype=obj \
	"$MIRAGE_SRC/tests/isa/forms.s" -o "$TEST_TMP/forms.o" || fail "llvm-mc-22 rejected tests/isa/forms.s"
objs+=("$TEST_TMP/forms.o")

n_cl=0
for cl in "$MIRAGE_SRC"/tests/isa/*.cl "$MIRAGE_SRC"/tests/kernels/*.cl; do
	[ -f "$cl" ] || continue
	for opt in O0 O2 O3; do
		out="$TEST_TMP/$(basename "$cl" .cl).$opt.o"
		"$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx1250 "-$opt" -nogpulib -w -c "$cl" -o "$out" \
			2>"$TEST_TMP/clang.err" || { cat "$TEST_TMP/clang.err"; fail "clang-22 -$opt $cl"; }
		objs+=("$out")
		n_cl=$((n_cl + 1))
	done
done
ok "$n_cl OpenCL objects compiled"

run_capture python3 "$MIRAGE_SRC/tests/integration/isa_oracle.py" corpus "${objs[@]}"
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "size, mnemonic and registers agree with llvm-objdump-22 for every known record"
assert_contains "$RUN_STDOUT" "decoded as known rows" "the share decoded is reported"
done_testing
