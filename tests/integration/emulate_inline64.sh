#!/usr/bin/env bash
# A float inline constant in a 64-bit operand is the f64 value, whatever the opcode's type:
# s_mov_b64 s[0:1], 1.0 gives 0x3ff0000000000000 (mirage gave 0x3f800000 for the integer and
# bitwise ops, which made libclc's round(double) and frexp(double) wrong at -O0).  The
# expectation is LLVM's: llvm-mc-22 must encode s_mov_b64 of each f64 value as that inline
# constant (no literal).  Kernels assembled here for gfx1250 and gfx942, run by mirage emulate.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$MIRAGE_SRC/tests/integration/kernel_asm.sh"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
consts=(0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0 0.15915494309189532)
# f64 bits of each constant; 0.15915494309189532 is 1/(2*pi), whose f64 inline value is 0x3fc45f306dc9c882
# (one ulp below the correctly rounded 1/(2*pi); the llvm-mc check below pins it).
mapfile -t bits < <(python3 -c '
import struct, sys
for c in sys.argv[1:]:
    if c == "0.15915494309189532":
        print("3fc45f306dc9c882")
    else:
        print("%016x" % struct.unpack("<Q", struct.pack("<d", float(c)))[0])' "${consts[@]}")
for i in "${!consts[@]}"; do
	enc=$(echo "s_mov_b64 s[0:1], 0x${bits[i]}" | "$LLVM_MC" -triple=amdgcn -mcpu=gfx1250 -show-encoding 2>&1 | grep -o 'encoding: \[[^]]*\]')
	n=$(echo "$enc" | tr -cd ',' | wc -c)
	assert_eq "$n" 3 "llvm-mc-22 encodes s_mov_b64 of 0x${bits[i]} as the inline ${consts[i]} ($enc)"
done

# One kernel per target: each op writes its 64-bit result to out[slot], 8 bytes a slot.
for cpu in gfx1250 gfx942; do
	if [ $cpu = gfx1250 ]; then
		load="s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0"
		store="global_store_b64 v0, v[4:5], s[2:3]"
	else
		load="s_load_dwordx2 s[2:3], s[0:1], 0x0; s_waitcnt lgkmcnt(0)"
		store="global_store_dwordx2 v0, v[4:5], s[2:3]"
	fi
	body=$load slot=0
	for c in "${consts[@]}"; do
		for op in "s_mov_b64 s[4:5], $c; v_mov_b32 v4, s4; v_mov_b32 v5, s5" \
			"s_or_b64 s[4:5], $c, 0; v_mov_b32 v4, s4; v_mov_b32 v5, s5" \
			"v_mov_b64 v[4:5], $c" \
			"v_lshlrev_b64 v[4:5], 0, $c"; do
			body+="; $op; v_mov_b32 v0, $((slot * 8)); $store"
			slot=$((slot + 1))
		done
	done
	CPU=$cpu KERNEL_VGPRS=8 kernel "inl_$cpu" "$body; s_endpgm"
	cat >"launch_$cpu.json" <<JSON
{"code_object": "inl_$cpu.co", "kernel": "k", "grid": [64], "workgroup": [64],
 "buffers": {"out": {"size": $((slot * 8)), "init": "zero", "output": "out_$cpu.bin"}},
 "args": [{"buffer": "out"}]}
JSON
	run_capture "$MIRAGE_BIN" emulate "launch_$cpu.json"
	assert_eq "$RUN_STATUS" 0 "$cpu: the kernel runs ($RUN_STDERR)"
	mapfile -t got < <(od -An -v -tx8 -w8 "out_$cpu.bin" | tr -d ' ')
	slot=0
	for i in "${!consts[@]}"; do
		for op in s_mov_b64 s_or_b64 v_mov_b64 v_lshlrev_b64; do
			assert_eq "${got[slot]}" "${bits[i]}" "$cpu: $op of the inline ${consts[i]} is the f64 0x${bits[i]}"
			slot=$((slot + 1))
		done
	done
done
done_testing
