#!/usr/bin/env bash
# Decodes every instruction of every test object and compares size, mnemonic and registers with
# llvm-objdump-22 -d, for the table $ISA (gfx1250, the default, gfx942 or gfx950): the build's objects
# of that family (fixtures, examples, the small bench object, the kernel suite's
# tests/kernels/<isa>/ objects), tests/isa/forms.s (gfx1250), and the OpenCL C kernels of
# tests/isa/ and tests/kernels/ compiled by clang-22 for $ISA at -O0, -O2 and -O3, as OpenCL C
# 1.2 and 2.0.  isa_dump picks the table from each object's e_flags.
# Reports the share decoded as known rows; fails on any disagreement for a known row.
source "$TEST_LIB"
export ISA="${ISA:-gfx1250}"
case "$ISA" in
gfx1250) family='gfx125[0-9]' ;;
gfx942) family='gfx94[0-9]|gfx9-4-generic' ;;
gfx950) family='gfx950' ;; # the build makes no gfx950 objects: the clang-22 builds below
*) fail "unknown ISA '$ISA'" ;;
esac

[ -x "$TEST_TOOLS/isa_dump" ] || fail "isa_dump not built ($TEST_TOOLS/isa_dump)"
command -v python3 >/dev/null || skip_all "python3 not installed"

objs=()
# Every object of the family the build makes: fixtures, examples, the small bench object, and
# the kernel suite's objects for this ISA (build/tests/kernels/<isa>/<O>/).
shopt -s nullglob
for co in "$FIXTURES"/*.co "$MIRAGE_BUILD"/examples/*.co "$MIRAGE_BUILD"/bench/rewrite/kernels64.co \
	"$MIRAGE_BUILD"/tests/kernels/"$ISA"/*/*.o "$MIRAGE_BUILD"/tests/kernels/"$ISA"/*/*.co; do
	[ -f "$co" ] || continue
	"$LLVM_READELF" -h "$co" 2>/dev/null | grep -Eq "Flags:.*($family)" && objs+=("$co")
done
shopt -u nullglob
[ "${#objs[@]}" -gt 0 ] || [ "$ISA" = gfx950 ] ||
	fail "no $ISA objects in the build ($FIXTURES, $MIRAGE_BUILD/tests/kernels/$ISA)"
ok "${#objs[@]} $ISA objects of the build"

if [ "$ISA" = gfx1250 ]; then
	"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu=gfx1250 -filetype=obj \
		"$MIRAGE_SRC/tests/isa/forms.s" -o "$TEST_TMP/forms.o" || fail "llvm-mc-22 rejected tests/isa/forms.s"
	objs+=("$TEST_TMP/forms.o")
fi

# tests/isa/ kernels are ours and must compile; a tests/kernels/ kernel that needs flags
# other than these (the kernel suite builds it its own way) is skipped with a note.
n_cl=0
for cl in "$MIRAGE_SRC"/tests/isa/*.cl "$MIRAGE_SRC"/tests/kernels/*.cl; do
	[ -f "$cl" ] || continue
	# OpenCL C 1.2 and 2.0 (generic address space: flat instead of global accesses).
	for std in CL1.2 CL2.0; do
		for opt in O0 O2 O3; do
			out="$TEST_TMP/$(basename "$(dirname "$cl")")_$(basename "$cl" .cl).$ISA.$std.$opt.o"
			if "$CLANG" -target amdgcn-amd-amdhsa "-mcpu=$ISA" "-$opt" -nogpulib "-cl-std=$std" \
				-w -c "$cl" -o "$out" 2>"$TEST_TMP/clang.err"; then
				objs+=("$out")
				n_cl=$((n_cl + 1))
			elif [ "$(basename "$(dirname "$cl")")" = kernels ]; then
				skip "clang-22 -$opt -cl-std=$std ${cl#"$MIRAGE_SRC"/}: $(head -1 "$TEST_TMP/clang.err")"
			else
				cat "$TEST_TMP/clang.err"
				fail "clang-22 -$opt -cl-std=$std $cl"
			fi
		done
	done
done
ok "$n_cl OpenCL objects compiled"

run_capture python3 "$MIRAGE_SRC/tests/integration/isa_oracle.py" corpus "${objs[@]}"
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "$ISA: size, mnemonic and registers agree with llvm-objdump-22 for every known record"
assert_contains "$RUN_STDOUT" "decoded as known rows" "the share decoded is reported"
done_testing
