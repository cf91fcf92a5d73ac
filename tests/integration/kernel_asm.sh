#!/usr/bin/env bash
# Kernels assembled at test time with llvm-mc-22 and linked with ld.lld-22 (no checked-in
# binaries), from the fixtures beside their expectations or written here, for the raiser's and
# the translator's tests.  Needs $LLVM_MC and $LD_LLD (tests/CMakeLists.txt sets both).

# assemble_fixture SRC NAME: NAME.co from the fixture SRC, its kernel lines expanded into NAME.s
# by tests/fixtures/expand.py (docs/HACKING.md, "Fixtures"), for the processor its
# .amdgcn_target names.
assemble_fixture() {
	local src=$1 name=$2 cpu
	python3 "$MIRAGE_SRC/tests/fixtures/expand.py" "$src" -o "$name.s" || fail "expand.py expands $src"
	cpu=$(sed -n 's/^[[:space:]]*\.amdgcn_target "amdgcn-amd-amdhsa--\([^":]*\).*/\1/p' "$name.s" | head -n 1)
	"$LLVM_MC" -triple amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$name.s" -o "$name.o" ||
		fail "llvm-mc assembles $name.s"
	"$LD_LLD" -shared "$name.o" -o "$name.co" || fail "ld.lld links $name.co"
}

# translate_fixture NAME [TARGET...]: NAME.TARGET.co, NAME.co translated by `mirage rewrite --target`
# for each TARGET (default gfx942 and gfx950), each translation asserted to succeed.
translate_fixture() {
	local name=$1 t
	shift
	[ $# -gt 0 ] || set -- gfx942 gfx950
	for t in "$@"; do
		run_capture "$MIRAGE_BIN" rewrite "$name.co" --target "$t" -o "$name.$t.co"
		assert_eq "$RUN_STATUS" 0 "the $t translation of $name ($(head -c 300 "$RUN_STDERR_FILE"))"
	done
}

# kernel NAME BODY [DESCRIPTOR_LINES] [METADATA_LINES]: NAME.co, one kernel named k whose code
# is BODY (";"-separated instructions), storing through the pointer argument like hello, for
# $CPU (default gfx1250); DESCRIPTOR_LINES (";"-separated) and METADATA_LINES are its own
# fields over the template's.  $KERNEL_LDS (default 0) is its LDS, $KERNEL_VGPRS (default 4, a
# multiple of 4) its VGPRs, $KERNEL_AGPRS (gfx9*, default 0, a multiple of 4) its AGPRs after
# them.
kernel() {
	local name=$1 body=$2 kd=${3:-} meta=${4:-} cpu=${CPU:-gfx1250}
	local vgprs=${KERNEL_VGPRS:-4} agprs=${KERNEL_AGPRS:-0}
	{
		printf '\t.amdgcn_target "amdgcn-amd-amdhsa--%s"\n\t.text\n' "$cpu"
		printf 'kernel k vgprs=%s sgprs=8 args=1%s\n' $((vgprs + agprs)) "${KERNEL_LDS:+ lds=$KERNEL_LDS}"
		printf '\t.amdhsa_kernarg_size 8\n'
		[ "$agprs" = 0 ] || printf '\t.amdhsa_accum_offset %s\n\t.agpr_count: %s\n' "$vgprs" "$agprs"
		[ -n "$kd" ] && printf '%s\n' "$kd" | tr ';' '\n' | sed 's/^ */\t/'
		[ -n "$meta" ] && printf '%s\n' "$meta"
		printf '%s\n' "$body" | tr ';' '\n' | sed 's/^ */\t/'
	} >"$name.fixture.s"
	assemble_fixture "$name.fixture.s" "$name"
}
