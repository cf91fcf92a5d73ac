/* darktable's wavelet shape (a 61x45 image in a 64x48 grid, the work-items outside it return
 * early) with noinline helpers that take pointers to a private struct and a private array
 * (read and written through them), and a struct passed and returned by value. */
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
	float v[3];
	int n;
} taps_t;

__attribute__((noinline)) void load_taps(taps_t *t, __global const float *row, int x, int sc,
                                         int size)
{
	int l = x - sc < 0 ? sc - x : x - sc;
	int r = x + sc < size ? x + sc : 2 * size - 2 - (x + sc);
	t->v[0] = row[x];
	t->v[1] = row[l];
	t->v[2] = row[r];
	t->n = 3;
}

__attribute__((noinline)) float hat(const taps_t *t)
{
	return 2.f * t->v[0] + t->v[1] + t->v[2] + (float)t->n;
}

__attribute__((noinline)) taps_t scaled(taps_t t, float k)
{
	for (int i = 0; i < 3; i++)
		t.v[i] *= k;
	t.n += 1;
	return t;
}

__attribute__((noinline)) float sum3(const float *a)
{
	return a[0] + a[1] + a[2];
}

__kernel void private_calls(__global float *out, __global const float *in, int width, int height,
                            int sc)
{
	const int x = (int)get_global_id(0);
	const int y = (int)get_global_id(1);
	if (x >= width || y >= height)
		return;
	taps_t t;
	load_taps(&t, in + y * width, x, sc, width);
	taps_t u = scaled(t, 0.5f);
	float a[3] = {u.v[0], u.v[1], (float)u.n};
	out[y * width + x] = hat(&t) + hat(&u) + sum3(a);
}
