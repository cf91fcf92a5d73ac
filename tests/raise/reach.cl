// Two kernels built at -O0, each calling its own helpers (noinline): ka calls fa; kb calls fb2,
// which calls fb twice.  With -DONLY_KA the object holds ka and fa alone.
// tests/integration/raise_reach.sh checks that each kernel is raised with the functions it
// reaches and no others, and runs both.
__attribute__((noinline)) int fa(int x) { return x * 3 + 1; }
#ifndef ONLY_KA
__attribute__((noinline)) int fb(int x) { return (x ^ 5) - 2; }
__attribute__((noinline)) int fb2(int x) { return fb(x) + fb(x + 1); }
kernel void kb(global int *out) { int i = (int)__builtin_amdgcn_workitem_id_x(); out[i] = fb2(i); }
#endif
kernel void ka(global int *out) { int i = (int)__builtin_amdgcn_workitem_id_x(); out[i] = fa(i); }
