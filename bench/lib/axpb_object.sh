# Sourced by the benchmarks (bench/cache, bench/translate): one gfx1250 code object of K small
# OpenCL C kernels, c[i] = a[i] * (k + 1) + k each, built here by clang-22 and ld.lld-22 (no
# checked-in binaries).

# axpb_object DIR CLANG LLD K: DIR/k.co (with DIR/k.cl and DIR/k.o beside it).
axpb_object() {
	local dir=$1 clang=$2 lld=$3 kernels=$4
	python3 - "$dir/k.cl" "$kernels" <<'PY'
import sys
out, n = sys.argv[1], int(sys.argv[2])
src = [f"__kernel void k{k}(__global float *c, __global const float *a, uint n) "
       f"{{ uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x(); if (i < n) c[i] = a[i] * {k + 1}.0f + {k}.0f; }}"
       for k in range(n)]
open(out, "w").write("\n".join(src) + "\n")
PY
	"$clang" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 \
		-c "$dir/k.cl" -o "$dir/k.o"
	"$lld" -shared "$dir/k.o" -o "$dir/k.co"
}
