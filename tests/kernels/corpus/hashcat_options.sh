# shellcheck shell=bash disable=SC2034
# hashcat's OpenCL build options for one of its kernel sources: the one list that corpus.sh
# (clang-22 for gfx1250) and run.sh (POCL, the judge) both compile with, so the two
# builds of a source differ only in the target.  Sourced, not run.
#
# hashcat_options FILE.cl HASHCAT_DIR sets the array hashcat_opts: hashcat's options
# (src/backend.c) for a device that takes none of the vendor inline-asm paths (HAS_*=0);
# FIXED_LOCAL_SIZE, which hashcat sets per hash mode for kernels with LDS tables, is one wave
# of 32 for all.  KERN_TYPE is the hash mode (the number in mNNNNN; 0 for the helper kernels,
# amp_aN.cl and shared.cl), ATTACK_KERN the attack (_aN, else 0).  Both builds also take
# prelude.h in front of the source (clang -include, POCL's prelude).
hashcat_options() {
	local name base mode attack dir=$2
	name=$(basename "$1" .cl)
	base=${name%%[_-]*} # m00400-pure has no attack: hash mode 400
	mode=0 # amp_a0, shared: hashcat's helper kernels, no hash mode
	case $base in m[0-9]*) mode=$((10#${base#m})) ;; esac
	attack=$(sed -n 's/.*_a\([0-9]\).*/\1/p' <<<"$name")
	hashcat_opts=(-D KERNEL_STATIC -I "$dir" -D "INCLUDE_PATH=$dir" -D 'XM2S(x)=#x'
		-D 'M2S(x)=XM2S(x)' -D LOCAL_MEM_TYPE=1 -D VENDOR_ID=1 -D CUDA_ARCH=0
		-D HAS_ADD=0 -D HAS_ADDC=0 -D HAS_SUB=0 -D HAS_SUBC=0 -D HAS_VADD=0 -D HAS_VADDC=0
		-D HAS_VADD_CO=0 -D HAS_VADDC_CO=0 -D HAS_VSUB=0 -D HAS_VSUBB=0 -D HAS_VSUB_CO=0
		-D HAS_VSUBB_CO=0 -D HAS_VPERM=0 -D HAS_VADD3=0 -D HAS_VBFE=0 -D HAS_BFE=0
		-D HAS_LOP3=0 -D HAS_MOV64=0 -D HAS_PRMT=0 -D VECT_SIZE=1 -D DEVICE_TYPE=4
		-D DGST_R0=0 -D DGST_R1=1 -D DGST_R2=2 -D DGST_R3=3 -D DGST_ELEM=4
		-D "KERN_TYPE=$mode" -D ATTACK_EXEC=11 -D "ATTACK_KERN=${attack:-0}"
		-D MAX_PW_LEN=256 -D FIXED_LOCAL_SIZE=32 -D _unroll)
}
