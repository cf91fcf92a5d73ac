/*
 * The cases of xfail.txt that are libclc-22's own results, as kernels: each work-item takes
 * one input tuple and calls the libclc function once.  libclc_host.sh compares what mirage
 * emulate gives with the same libclc functions compiled for the host (libclc_host.c).
 * get_local_id, not get_global_id: libclc-22's get_global_id reads Mesa's implicit-argument
 * layout (see tests/kernels/corpus/prelude.h).
 */
kernel void k_float(global uint *out, global const float *a, global const float *b)
{
	uint i = get_local_id(0);
	int q = 0;

	out[4 * i + 0] = as_uint(fmod(a[i], b[i]));
	out[4 * i + 1] = as_uint(remainder(a[i], b[i]));
	out[4 * i + 2] = as_uint(remquo(a[i], b[i], &q));
	out[4 * i + 3] = (uint)q;
}

kernel void k_long(global long *out, global const long *a, global const long *b,
		   global const long *c)
{
	uint i = get_local_id(0);

	out[i] = mad_sat(a[i], b[i], c[i]);
}
