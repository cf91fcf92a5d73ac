#!/usr/bin/env bash
# The translator's refusals (docs/translate.md), each from a small gfx1250 kernel assembled
# here: translate_object (through tests/tools/translate_drive) names the kernel, the reason, the
# instruction's address and mnemonic, and ships no image; a raise refusal passes through as the
# raiser gives it.  Then what the source's descriptor and metadata carry into the output (FP
# mode, reqd_work_group_size, LDS, no unused inputs), and the errors of a whole object: an
# unknown target, a file that is no code object.
# shellcheck source=lib.sh
source "$TEST_LIB"
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"

cd "$TEST_TMP" || exit 1
[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
drive=$TEST_TOOLS/translate_drive
lib=$MIRAGE_BUILD/lib/mirage/libmirage_translate.so

store='s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_mov_b32 v0, 42; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]'

# address NAME PATTERN: the address objdump gives the first instruction matching PATTERN.
address() {
	"$LLVM_OBJDUMP" -d --mcpu=gfx1250 "$1.co" | grep -m1 -E "$2" |
		sed -E 's|.*// 0*([0-9A-Fa-f]+):.*|0x\1|' | tr 'A-F' 'a-f'
}

# refused NAME TARGET REASON ADDRESS MNEMONIC DETAIL
refused() {
	rm -f "$1.$2.co"
	run_capture "$drive" "$lib" "$1.co" "$2" "$1.$2.co" "$1.$2.tsv"
	assert_eq "$RUN_STATUS" 1 "$1 for $2: a refused kernel"
	assert_contains "$(cat "$1.$2.tsv")" "k	refused	$3	$4	$5	" "$1 for $2: k is refused for $3 at $4 ($5)"
	assert_contains "$(cat "$1.$2.tsv")" "$6" "$1 for $2: the detail says '$6'"
	[ ! -e "$1.$2.co" ] && ok "$1 for $2: no image" || fail "$1 for $2: no image"
}

# whole_wave NAME TARGET ADDRESS MNEMONIC NOTE: translated in whole-wave mode for that site
whole_wave() {
	run_capture "$drive" "$lib" "$1.co" "$2" "$1.$2.co" "$1.$2.tsv"
	assert_eq "$RUN_STATUS" 0 "$1 for $2: translated"
	assert_contains "$(cat "$1.$2.tsv")" "k	whole-wave	-	$3	$4	" "$1 for $2: k is in whole-wave mode for $4 at $3"
	assert_contains "$(cat "$1.$2.tsv")" "whole-wave mode for $4 at $3: $5" "$1 for $2: the note says '$5'"
	[ -s "$1.$2.co" ] && ok "$1 for $2: an image" || fail "$1 for $2: an image"
	"$LLVM_OBJDUMP" -d --mcpu="$2" "$1.$2.co" | grep -A1 '^[0-9a-f]* <k>:' | grep -Eq 's_or_saveexec_b64 s\[[0-9]+:[0-9]+\], -1' &&
		ok "$1 for $2: k starts by turning every lane on" || fail "$1 for $2: k starts by turning every lane on"
}

# translated NAME TARGET
translated() {
	run_capture "$drive" "$lib" "$1.co" "$2" "$1.$2.co" "$1.$2.tsv"
	assert_eq "$RUN_STATUS" 0 "$1 for $2: translated ($(cut -f3,7 "$1.$2.tsv" 2>/dev/null))"
	[ -s "$1.$2.co" ] && ok "$1 for $2: an image" || fail "$1 for $2: an image"
}

# EXEC beyond the lanes the wave started with: exact when every lane of a source wave exists,
# so translated in whole-wave mode (docs/translate.md), the first unproven write named.
kernel expand "s_mov_b32 exec_lo, -1; $store; s_endpgm"
for t in gfx942 gfx950; do
	whole_wave expand $t "$(address expand 'exec_lo, -1')" s_mov_b32 "EXEC is set to 0xffffffff"
done
kernel fromsgpr "s_load_b32 s4, s[0:1], 0x0; s_wait_kmcnt 0; s_mov_b32 exec_lo, s4; $store; s_endpgm"
whole_wave fromsgpr gfx942 "$(address fromsgpr 'exec_lo, s4')" s_mov_b32 "the value written to EXEC is not derived from the entry EXEC"
# Within: a compare's mask, saved and restored; proven, so not in whole-wave mode.
kernel within "v_cmp_eq_u32 vcc_lo, 0, v0; s_and_saveexec_b32 s4, vcc_lo; $store; s_or_b32 exec_lo, exec_lo, s4; s_endpgm"
translated within gfx942
assert_contains "$(cut -f2 within.gfx942.tsv)" translated "within for gfx942: not in whole-wave mode"

# v_writelane writes its lane whatever EXEC: only lane 0 exists in every half with lanes;
# another lane, constant or chosen at run time, exists in whole-wave mode.
kernel writelane "s_mov_b32 s4, 7; v_writelane_b32 v2, s4, 3; $store; s_endpgm"
whole_wave writelane gfx942 "$(address writelane 'v_writelane_b32')" v_writelane_b32 "v_writelane to lane 3"
kernel writelanes4 "s_load_b32 s5, s[0:1], 0x0; s_wait_kmcnt 0; s_mov_b32 s4, 7; v_writelane_b32 v2, s4, s5; $store; s_endpgm"
whole_wave writelanes4 gfx942 "$(address writelanes4 'v_writelane_b32')" v_writelane_b32 "v_writelane to a lane chosen at run time"
kernel writelane0 "s_mov_b32 s4, 7; v_writelane_b32 v2, s4, 0; $store; s_endpgm"
translated writelane0 gfx942
assert_contains "$(cut -f2 writelane0.gfx942.tsv)" translated "writelane0 for gfx942: not in whole-wave mode"
# Whole-wave mode does not hide the barrier proof: an unproven EXEC write and a barrier under
# a branch on EXEC is still refused, for the barrier.
kernel wholebarrier "s_mov_b32 exec_lo, -1; $store; v_cmp_eq_u32 vcc_lo, 0, v0; s_and_saveexec_b32 s4, vcc_lo; s_cbranch_execz .Lskip; s_barrier_signal -1; s_barrier_wait 0xffff; .Lskip:; s_or_b32 exec_lo, exec_lo, s4; s_endpgm"
refused wholebarrier gfx942 nonuniform-scalar-state "$(address wholebarrier 's_barrier_wait')" s_barrier_wait "can differ between the two source waves"

# A barrier under a branch on EXEC: the two source waves of a wave64 may disagree.
diverge="v_cmp_eq_u32 vcc_lo, 0, v0; s_and_saveexec_b32 s4, vcc_lo; s_cbranch_execz .Lskip"
kernel barrier "$store; $diverge; s_barrier_signal -1; s_barrier_wait 0xffff; .Lskip:; s_or_b32 exec_lo, exec_lo, s4; s_endpgm"
for t in gfx942 gfx950; do
	refused barrier $t nonuniform-scalar-state "$(address barrier 's_barrier_wait')" s_barrier_wait "can differ between the two source waves"
done
# The same barrier after the join, and one under a branch on a kernel argument, translate.
kernel joined "$store; $diverge; v_mov_b32 v2, 1; .Lskip:; s_or_b32 exec_lo, exec_lo, s4; s_barrier_signal -1; s_barrier_wait 0xffff; s_endpgm"
translated joined gfx942
kernel argbranch "$store; s_load_b32 s5, s[0:1], 0x0; s_wait_kmcnt 0; s_cmp_eq_u32 s5, 0; s_cbranch_scc1 .Lskip; s_barrier_signal -1; s_barrier_wait 0xffff; .Lskip:; s_endpgm"
translated argbranch gfx942

# LDS beyond the target's: gfx942 has 64 KiB, gfx950 160 KiB.
KERNEL_LDS=98304 kernel lds "$store; s_endpgm"
refused lds gfx942 lds-limit "$(address lds 's_load_b64')" "" "98304 bytes of LDS, gfx942 has 65536"
translated lds gfx950
KERNEL_LDS=200000 kernel lds200 "$store; s_endpgm"
refused lds200 gfx950 lds-limit "$(address lds200 's_load_b64')" "" "200000 bytes of LDS, gfx950 has 163840"

# A raise refusal passes through: kernel, address, mnemonic, reason and detail.
kernel unsupported "$store; buffer_load_b32 v2, v1, s[4:7], s8 offen; s_endpgm"
refused unsupported gfx942 unsupported-instruction "$(address unsupported 'buffer_load_b32')" buffer_load_b32 "buffer resources are not raised"

# What the source carries over, read back from the output's descriptor and notes.
# kd NAME TARGET: the output's kernel descriptor as llvm-objdump prints it.
kd() { "$LLVM_OBJDUMP" -D --mcpu="$2" -j .rodata "$1.$2.co"; }
kernel attrs "$store; s_endpgm" ".amdhsa_float_denorm_mode_32 0" "    .reqd_workgroup_size: [64, 1, 1]"
translated attrs gfx942
assert_contains "$(kd attrs gfx942)" ".amdhsa_float_denorm_mode_32 0" "denormals flushed as the source's RSRC1 says"
assert_contains "$(kd attrs gfx942)" ".amdhsa_float_denorm_mode_16_64 3" "f16/f64 denormals kept as the source's"
assert_contains "$(kd attrs gfx942)" ".amdhsa_user_sgpr_kernarg_segment_ptr 1" "the kernarg pointer"
for input in dispatch_ptr queue_ptr dispatch_id; do
	assert_contains "$(kd attrs gfx942)" ".amdhsa_user_sgpr_$input 0" "no $input the kernel does not read"
done
assert_contains "$(kd attrs gfx942)" ".amdhsa_kernarg_size 8" "the source's kernarg size"
notes=$("$LLVM_READELF" --notes attrs.gfx942.co)
assert_contains "$notes" ".reqd_workgroup_size:" "reqd_work_group_size carried"
assert_contains "$(printf '%s' "$notes" | sed -n '/reqd_workgroup_size/,+3p' | tr -d ' \n')" "-64-1-1" "as [64, 1, 1]"
assert_contains "$notes" ".max_flat_workgroup_size: 256" "the source's max flat workgroup size"
assert_contains "$notes" ".wavefront_size: 64" "wave64"
assert_contains "$(kd lds gfx950)" ".amdhsa_group_segment_fixed_size 98304" "the source's static LDS on gfx950"

# The build identity (cache keys, provenance): the library's own GNU build-id.
id=$("$LLVM_READELF" --notes "$lib" | sed -n 's/.*Build ID: *//p')
run_capture "$drive" "$lib" --build-id
assert_eq "$RUN_STDOUT" "mirage-translate-$id" "build_id is the library's GNU build-id"

# Errors of the whole object: exit 2, the message on stderr.
kernel good "$store; s_endpgm"
run_capture "$drive" "$lib" good.co gfx90a good.out good.tsv
assert_eq "$RUN_STATUS" 2 "an unknown target is an error"
assert_contains "$RUN_STDERR" "no translation to 'gfx90a': the translator lowers for gfx942, gfx950" "the message names the targets"
printf 'not elf' >junk.co
run_capture "$drive" "$lib" junk.co gfx942 junk.out junk.tsv
assert_eq "$RUN_STATUS" 2 "a file that is no code object is an error"
assert_contains "$RUN_STDERR" "the code object: not an AMDGPU ELF code object" "the message says what is wrong"

done_testing
