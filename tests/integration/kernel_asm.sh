#!/usr/bin/env bash
# Small kernels assembled at test time with llvm-mc-22 and linked with ld.lld-22 (no
# checked-in binaries), for the raiser's and the translator's refusal tests.  Needs $LLVM_MC
# and $LD_LLD (tests/CMakeLists.txt sets both).

# kernel NAME BODY [DESCRIPTOR_LINES] [METADATA_LINES]: NAME.co, one kernel named k whose code
# is BODY (";"-separated instructions), storing through the pointer argument like hello, for
# $CPU (default gfx1250; gfx9* gets a wave64 descriptor); $KERNEL_LDS (default 0) is its
# metadata .group_segment_fixed_size, $KERNEL_VGPRS (default 4, a multiple of 4) its VGPRs,
# $KERNEL_AGPRS (gfx9*, default 0, a multiple of 4) its AGPRs after them.
kernel() {
	local name=$1 body=$2 kd=${3:-} meta=${4:-} cpu=${CPU:-gfx1250} wave=32
	local vgprs=${KERNEL_VGPRS:-4} agprs=${KERNEL_AGPRS:-0}
	case $cpu in gfx9*) wave=64 ;; esac
	{
		printf '\t.amdgcn_target "amdgcn-amd-amdhsa--%s"\n\t.text\n\t.globl k\n' "$cpu"
		printf '\t.p2align 8\n\t.type k,@function\nk:\n'
		printf '%s\n' "$body" | tr ';' '\n' | sed 's/^ */\t/'
		case $body in *".size k"*) ;; *) printf '.Lk_end:\n\t.size k, .Lk_end-k\n' ;; esac
		printf '\n\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n'
		printf '\t.amdhsa_next_free_vgpr %s\n\t.amdhsa_next_free_sgpr 8\n' $((vgprs + agprs))
		printf '\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n\t.amdhsa_kernarg_size 8\n'
		[ "$wave" = 64 ] && printf '\t.amdhsa_accum_offset %s\n' "$vgprs"
		[ -n "$kd" ] && printf '%s\n' "$kd" | tr ';' '\n' | sed 's/^ */\t/'
		printf '\t.end_amdhsa_kernel\n\n\t.amdgpu_metadata\n---\namdhsa.kernels:\n'
		printf '  - .name: k\n    .symbol: k.kd\n    .kernarg_segment_size: 8\n'
		printf '    .group_segment_fixed_size: %s\n    .private_segment_fixed_size: 0\n' "${KERNEL_LDS:-0}"
		printf '    .kernarg_segment_align: 8\n    .wavefront_size: %s\n    .sgpr_count: 8\n' "$wave"
		printf '    .vgpr_count: %s\n    .max_flat_workgroup_size: 256\n' $((vgprs + agprs))
		[ "$agprs" = 0 ] || printf '    .agpr_count: %s\n' "$agprs"
		[ -n "$meta" ] && printf '%s\n' "$meta"
		printf '    .args:\n      - .size: 8\n        .offset: 0\n        .value_kind: global_buffer\n'
		printf '        .address_space: global\namdhsa.target: amdgcn-amd-amdhsa--%s\n' "$cpu"
		printf 'amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n'
	} >"$name.s"
	"$LLVM_MC" -triple amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$name.s" -o "$name.o" ||
		fail "llvm-mc assembles $name.s"
	"$LD_LLD" -shared "$name.o" -o "$name.co" || fail "ld.lld links $name.co"
}
