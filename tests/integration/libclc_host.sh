#!/usr/bin/env bash
# The libclc entries of tests/builtins/xfail.txt are libclc-22's own results, not the raiser's:
# fmod, remainder and remquo of float with denormal operands, mad_sat of long when the signs
# differ, and the software fma of float (what -O0 kernels call) with a denormal addend.  The judge is the same libclc code run by something we did not write: the
# functions are extracted from libclc's bitcode (llvm-extract-22), retargeted to x86-64 and
# compiled by clang-22 into tests/builtins/libclc_host.c's driver.  mirage emulate of
# tests/builtins/libclc_host.cl (built for gfx1250 with the same libclc) must give the same
# bytes, and so must the gfx942 and gfx950 translations of it.  The driver also shows that
# these cases differ from the C library, so that the test pins libclc's behaviour, not C's.
# shellcheck source=lib.sh
source "$TEST_LIB"

src=$MIRAGE_SRC/tests/builtins
libclc=/usr/lib/clc/amdgcn-amd-amdhsa.bc
[ -f "$libclc" ] || skip_all "no libclc-22 ($libclc)"
cd "$TEST_TMP" || exit 1

# The host build of libclc's functions: the extracted IR with its amdgcn target, target
# attributes and private address space taken off, nothing else changed.
run_capture "$LLVM_EXTRACT" --recursive --func=_Z4fmodff --func=_Z9remainderff \
	--func=_Z6remquoffPU3AS5i --func=_Z7mad_satlll --func=_Z3fmafff -S "$libclc" -o libclc_amdgcn.ll
assert_eq "$RUN_STATUS" 0 "llvm-extract takes the five functions out of libclc: $RUN_STDERR"
sed -e '/^target datalayout/d' -e 's/^target triple = .*/target triple = "x86_64-pc-linux-gnu"/' \
	-e 's/^attributes #\([0-9]*\) = .*/attributes #\1 = { nounwind }/' \
	-e 's/ addrspace(5)//g' libclc_amdgcn.ll >libclc_x86.ll
run_capture "$CLANG" -O0 -Wno-override-module libclc_x86.ll "$src/libclc_host.c" -lm -o libclc_host
assert_eq "$RUN_STATUS" 0 "the host build of libclc's functions links: $RUN_STDERR"
run_capture ./libclc_host "$TEST_TMP"
assert_eq "$RUN_STATUS" 0 "the host build of libclc runs: $RUN_STDERR"
printf '%s\n' "$RUN_STDOUT" >host.txt
assert_contains host.txt "fmod     (00000001, 007fffff) libclc 00000000  libm 00000001  differs" \
	"libclc's fmod gives 0 for a denormal dividend, the C library the dividend"
assert_contains host.txt "remainder(00000000, 00000001) libclc 80000000  libm 00000000  differs" \
	"libclc's remainder(+0, 0x1p-149) is -0"
assert_contains host.txt "remquo   (00000000, 00000001) libclc 7fc00000  libm 00000000  differs" \
	"libclc's remquo(+0, 0x1p-149) is NaN"
assert_contains host.txt "mad_sat(0, -9223372036854775808, 65) libclc -9223372036854775808  exact 65  differs" \
	"libclc's mad_sat(long) is LONG_MIN when the signs differ"
assert_contains host.txt "remquo   (40b00000, 40000000) libclc bf000000  libm bf000000" \
	"on normal operands libclc agrees with the C library"
assert_contains host.txt "fma(00000000, ff7fffff, 80000001) libclc 80000000  libm 80000001  differs" \
	"libclc's software fma flushes a denormal addend to a zero product"
assert_contains host.txt "fma(00000000, c0600000, 007fffff) libclc 80000000  libm 007fffff  differs" \
	"and gives -0 for +0 * -3.5 + 0x007fffff"

run_capture "$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib \
	-Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang "$libclc" \
	-ffp-contract=off -O2 -c "$src/libclc_host.cl" -o libclc_host.o
assert_eq "$RUN_STATUS" 0 "the kernels build for gfx1250: $RUN_STDERR"
run_capture "$LD_LLD" -shared libclc_host.o -o gfx1250.co
assert_eq "$RUN_STATUS" 0 "the kernels link: $RUN_STDERR"
for target in gfx942 gfx950; do
	run_capture "$MIRAGE_BIN" rewrite gfx1250.co -o "$target.co" --target "$target"
	assert_eq "$RUN_STATUS" 0 "mirage rewrite --target $target translates both kernels: $RUN_STDERR"
done

for co in gfx1250 gfx942 gfx950; do
	cat >"float.$co.json" <<-JSON
		{"code_object": "$co.co", "kernel": "k_float", "grid": [8, 1, 1], "workgroup": [8, 1, 1],
		 "buffers": {"out": {"size": 128, "init": "fill:0xa5", "output": "float.$co.out"},
		             "a": {"size": 32, "init": "file:a.bin"}, "b": {"size": 32, "init": "file:b.bin"}},
		 "args": [{"buffer": "out"}, {"buffer": "a"}, {"buffer": "b"}]}
	JSON
	cat >"long.$co.json" <<-JSON
		{"code_object": "$co.co", "kernel": "k_long", "grid": [8, 1, 1], "workgroup": [8, 1, 1],
		 "buffers": {"out": {"size": 64, "init": "fill:0xa5", "output": "long.$co.out"},
		             "a": {"size": 64, "init": "file:la.bin"}, "b": {"size": 64, "init": "file:lb.bin"},
		             "c": {"size": 64, "init": "file:lc.bin"}},
		 "args": [{"buffer": "out"}, {"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}]}
	JSON
	for k in float long; do
		run_capture "$MIRAGE_BIN" emulate "$k.$co.json"
		# LLVM lowers mad_sat(long)'s signed 32x32 products to gfx9's v_mad_i64_i32, whose
		# row the gfx942/gfx950 tables do not have yet: a named refusal, never wrong bytes.
		if [ "$k.$co" != long.gfx1250 ] && [ "$RUN_STATUS" = 1 ] &&
			_contains "$RUN_STDERR" "unknown-instruction: no decoder table row matches: format VOP3 opcode 0x1e9"; then
			ok "k_long ($co) is refused for v_mad_i64_i32 (VOP3 0x1e9), not run wrongly"
			continue
		fi
		assert_eq "$RUN_STATUS" 0 "mirage emulate runs k_$k ($co): $RUN_STDERR"
		if cmp -s "$k.$co.out" "$k.expect"; then
			ok "k_$k ($co) gives libclc's bytes, as its host build does"
		else
			fail "k_$k ($co) differs from the host build of libclc: $(cmp -l "$k.$co.out" "$k.expect" | head -3)"
		fi
	done
done
done_testing
