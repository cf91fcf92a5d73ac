/* The CPU runner: lane fibers, wave rendezvous, barriers, memory checks (runner.h). */
#include "runner.h"

#include "mirage/raise.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <xmmintrin.h>

#define STACK_BYTES (256u * 1024)
#define SINK_BYTES  256

enum lane_state {
	LANE_READY,
	LANE_AT_HOOK,
	LANE_DONE
};
enum hook_kind {
	K_NONE,
	K_BALLOT,
	K_READLANE,
	K_READFIRSTLANE,
	K_BARRIER,
	K_ISFIRST,
	K_PERMUTE,
	K_WAVE_SYNC
};

static const char *const kind_name[] = {"none",    "ballot",          "readlane", "readfirstlane",
                                        "barrier", "barrier_isfirst", "permute",  "wave_sync"};

struct lane {
	ucontext_t ctx;
	enum lane_state state;
	enum hook_kind kind;
	uint32_t site, a, b;
	uint64_t result;
	uint32_t index; /* in the wave */
	uint32_t packed_tid;
	uint64_t entry_exec; /* its wave's */
	uint8_t *scratch;
	uint8_t *stack;
};

struct wave {
	struct lane lanes[RUNNER_MAX_WAVE];
	uint64_t entry_exec;
	bool done, at_barrier;
};

struct runner {
	const struct run_config *cfg;
	struct run_report *rep;
	ucontext_t sched;
	struct wave *waves;
	uint32_t nwaves;
	uint32_t wave; /* lanes per wave */
	uint32_t wg_id[3];
	uint8_t *lds, *scratch, *stacks;
	size_t stacks_bytes;
	uint64_t rng;
	bool failed;
	bool isfirst_taken; /* a wave of the group had s_barrier_signal_isfirst's 1 this phase */
	uint8_t sink[SINK_BYTES] __attribute__((aligned(64))); /* faulting accesses land here */
};

/* One run at a time per thread: the hooks find their lane here. */
static __thread struct runner *rt;
static __thread struct lane *cur;

static uint64_t next_rand(struct runner *r)
{
	uint64_t z = (r->rng += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void order(struct runner *r, uint32_t *idx, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		idx[i] = i;
	if (!r->cfg->shuffle)
		return;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)(next_rand(r) % i), t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

static void fail(struct runner *r, enum run_status st, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(struct runner *r, enum run_status st, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	if (r->failed)
		return;
	r->failed = true;
	r->rep->status = st;
	r->rep->fault_offset = off;
	va_start(ap, fmt);
	vsnprintf(r->rep->message, sizeof(r->rep->message), fmt, ap);
	va_end(ap);
}

/* ---- hooks (the host binding points the raised module's mx.* calls here) ---- */

/* An hsa_queue_t-sized block of zeros: kernels that enable the queue pointer for calls read
 * nothing from it that a CPU run could honour. */
static uint8_t queue_block[256] __attribute__((aligned(64)));
static uint64_t rendezvous(enum hook_kind k, uint32_t site, uint32_t a, uint32_t b)
{
	struct lane *l = cur;
	l->state = LANE_AT_HOOK;
	l->kind = k;
	l->site = site;
	l->a = a;
	l->b = b;
	swapcontext(&l->ctx, &rt->sched);
	return l->result;
}

static uint32_t h_lane_id(void)
{
	return cur->index;
}
static uint32_t h_packed_tid(void)
{
	return cur->packed_tid;
}
static uint32_t h_wg_id(uint32_t d)
{
	return d < 3 ? rt->wg_id[d] : 0;
}
static uint32_t h_entry_exec(void)
{
	return (uint32_t)cur->entry_exec;
}
static uint64_t h_entry_exec64(void)
{
	return cur->entry_exec;
}
static uint64_t h_kernarg(void)
{
	return (uint64_t)(uintptr_t)rt->cfg->kernarg;
}
static uint64_t h_queue(void)
{
	return (uint64_t)(uintptr_t)queue_block;
}
static uint64_t h_dispatch(void)
{
	return (uint64_t)(uintptr_t)rt->cfg->dispatch;
}

static void *h_lds(uint32_t addr, uint32_t bytes, uint32_t off);
static void *h_scratch(uint32_t addr, uint32_t bytes, uint32_t off);

/*
 * The fault of a global access outside every region.  The host address means nothing to the
 * user of a launch file, so the access is also placed against the nearest region within 1 MiB,
 * by name: "at offset 8 of 'out', which has 4 bytes" or "16 bytes before 'in'".
 */
static void fault_outside(const struct run_config *c, uint64_t addr, uint32_t bytes, uint32_t off)
{
	const struct run_region *near = NULL;
	uint64_t best = UINT64_MAX, gap = 0;
	bool before = false;

	for (size_t i = 0; i < c->nregions; i++) {
		uint64_t base = (uint64_t)(uintptr_t)c->regions[i].base,
		         end = base + c->regions[i].size;
		bool b = addr < base;
		/* before: the access starts below the region; else it ends past its end. */
		uint64_t d = b ? base - addr : addr + bytes - end;
		if (d < best) {
			best = d;
			near = &c->regions[i];
			before = b;
			gap = b ? base - addr : addr - base;
		}
	}
	if (!near || best > (1u << 20))
		fail(rt, RUN_FAULT, off,
		     "instruction at 0x%x: %u-byte access at 0x%llx is outside every buffer of the "
		     "launch",
		     off, bytes, (unsigned long long)addr);
	else if (before)
		fail(rt, RUN_FAULT, off,
		     "instruction at 0x%x: %u-byte access at 0x%llx is outside every buffer of the "
		     "launch: %llu bytes before '%s'",
		     off, bytes, (unsigned long long)addr, (unsigned long long)gap, near->name);
	else
		fail(rt, RUN_FAULT, off,
		     "instruction at 0x%x: %u-byte access at 0x%llx is outside every buffer of the "
		     "launch: at offset %llu of '%s', which has %llu bytes",
		     off, bytes, (unsigned long long)addr, (unsigned long long)gap, near->name,
		     (unsigned long long)near->size);
}

/* Global memory: the launch's buffers, the object's image and the queue block, else a fault
 * naming the access. */
static void *h_smem(uint64_t addr, uint32_t bytes, uint32_t off)
{
	const struct run_config *c = rt->cfg;
	if (c->image && addr - c->image_addr < c->image_size &&
	    bytes <= c->image_size - (addr - c->image_addr))
		return c->image + (addr - c->image_addr);
	for (size_t i = 0; i < c->nregions; i++) {
		uint64_t base = (uint64_t)(uintptr_t)c->regions[i].base;
		if (addr >= base && bytes <= c->regions[i].size &&
		    addr - base <= c->regions[i].size - bytes)
			return (void *)(uintptr_t)addr;
	}
	if (addr >= (uint64_t)(uintptr_t)queue_block && bytes <= sizeof(queue_block) &&
	    addr - (uint64_t)(uintptr_t)queue_block <= sizeof(queue_block) - bytes)
		return (void *)(uintptr_t)addr;
	fault_outside(c, addr, bytes, off);
	return rt->sink;
}

static void *h_global(uint64_t addr, uint32_t bytes, uint32_t off)
{
	/* Generic addresses in the apertures: this lane's scratch, the workgroup's LDS. */
	if (addr - RAISE_APERTURE_PRIVATE < RAISE_APERTURE_SIZE)
		return h_scratch((uint32_t)addr, bytes, off);
	if (addr - RAISE_APERTURE_SHARED < RAISE_APERTURE_SIZE)
		return h_lds((uint32_t)addr, bytes, off);
	return h_smem(addr, bytes, off);
}

/* base + addr when the access lies inside the size bytes of one space (LDS, scratch), else a
 * fault naming the space and its owner, and the sink. */
static void *in_space(uint8_t *base, uint32_t size, const char *space, const char *owner,
                      uint32_t addr, uint32_t bytes, uint32_t off)
{
	if (bytes <= size && addr <= size - bytes)
		return base + addr;
	fail(rt, RUN_FAULT, off,
	     "instruction at 0x%x: %u-byte %s access at 0x%x is outside the %s's %u bytes", off,
	     bytes, space, addr, owner, size);
	return rt->sink;
}

/* LDS: the workgroup's allocation (runner.h); a fault past it says what was declared. */
static void *h_lds(uint32_t addr, uint32_t bytes, uint32_t off)
{
	const struct run_config *c = rt->cfg;
	if (c->lds_declared == c->lds_bytes ||
	    (bytes <= c->lds_bytes && addr <= c->lds_bytes - bytes))
		return in_space(rt->lds, c->lds_bytes, "LDS", "workgroup", addr, bytes, off);
	fail(rt, RUN_FAULT, off,
	     "instruction at 0x%x: %u-byte LDS access at 0x%x is outside the workgroup's %u bytes "
	     "(its %u bytes of LDS, allocated in the processor's blocks)",
	     off, bytes, addr, c->lds_bytes, c->lds_declared);
	return rt->sink;
}

static void *h_scratch(uint32_t addr, uint32_t bytes, uint32_t off)
{
	return in_space(cur->scratch, rt->cfg->scratch_bytes, "scratch", "lane", addr, bytes, off);
}

/* i1 arguments arrive with only bit 0 defined. */
static uint32_t h_ballot(uint32_t p, uint32_t site)
{
	return (uint32_t)rendezvous(K_BALLOT, site, p, 0);
}
static uint64_t h_ballot64(uint32_t p, uint32_t site)
{
	return rendezvous(K_BALLOT, site, p, 0);
}
static uint32_t h_readlane(uint32_t v, uint32_t lane, uint32_t site)
{
	return (uint32_t)rendezvous(K_READLANE, site, v, lane);
}
static uint32_t h_readfirstlane(uint32_t v, uint32_t exec, uint32_t site)
{
	return (uint32_t)rendezvous(K_READFIRSTLANE, site, v, exec);
}
static void h_barrier(uint32_t site)
{
	rendezvous(K_BARRIER, site, 0, 0);
}
static uint32_t h_barrier_isfirst(uint32_t site)
{
	return rendezvous(K_ISFIRST, site, 0, 0);
}
static uint32_t h_permute(uint32_t v, uint32_t dst, uint32_t site)
{
	return rendezvous(K_PERMUTE, site, v, dst);
}
static void h_wave_sync(uint32_t site)
{
	rendezvous(K_WAVE_SYNC, site, 0, 0);
}
static void h_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static void h_fault(uint32_t reason, uint32_t off)
{
	fail(rt, RUN_FAULT, off,
	     reason == RAISE_UNSUPPORTED_REGISTER
	         ? "instruction at 0x%x: a relative register index (M0) beyond the kernel's "
	           "registers"
	     : reason == RAISE_UNSUPPORTED_FORM
	         ? "instruction at 0x%x: a lane's operand is one whose result is not modelled (a "
	           "value the instruction's rule, as docs/raiser.md holds it, does not cover)"
	     : reason == RAISE_UNDOCUMENTED
	         ? "instruction at 0x%x: a lane of the wave is inactive, for which the "
	           "instruction's rule is not documented"
	     : reason
	         ? "instruction at 0x%x: an indirect branch to an address the raised code does "
	           "not know (a function's entry; for a return, the site of its call)"
	         : "instruction at 0x%x: s_trap: the wave ends in the trap handler (llvm.trap)",
	     off);
}

/*
 * The hardware's approximate float ops: v_rcp/v_rsq/v_sqrt are documented to 1 ULP, which
 * the correctly rounded result is within; v_exp/v_log are base 2; v_sin/v_cos take turns.
 */
static float h_rcp_f32(float x)
{
	return 1.0f / x;
}
static float h_rsq_f32(float x)
{
	return (float)(1.0 / sqrt((double)x));
}
static float h_sqrt_f32(float x)
{
	return sqrtf(x);
}
static float h_exp2_f32(float x)
{
	return exp2f(x);
}
static float h_log2_f32(float x)
{
	return log2f(x);
}
static float h_sin_f32(float x)
{
	return (float)sin((double)x * 6.283185307179586);
}
static float h_cos_f32(float x)
{
	return (float)cos((double)x * 6.283185307179586);
}
static double h_rcp_f64(double x)
{
	return 1.0 / x;
}
static double h_rsq_f64(double x)
{
	return 1.0 / sqrt(x);
}
static double h_sqrt_f64(double x)
{
	return sqrt(x);
}

static const struct {
	const char *hook;
	void *fn;
} hook_table[] = {
    {"mx.lane_id", (void *)h_lane_id},
    {"mx.packed_workitem_id", (void *)h_packed_tid},
    {"mx.workgroup_id", (void *)h_wg_id},
    {"mx.entry_exec", (void *)h_entry_exec},
    {"mx.entry_exec64", (void *)h_entry_exec64},
    {"mx.kernarg_ptr", (void *)h_kernarg},
    {"mx.dispatch_ptr", (void *)h_dispatch},
    {"mx.queue_ptr", (void *)h_queue},
    {"mx.global", (void *)h_global},
    {"mx.smem", (void *)h_smem},
    {"mx.lds", (void *)h_lds},
    {"mx.scratch", (void *)h_scratch},
    {"mx.ballot", (void *)h_ballot},
    {"mx.ballot64", (void *)h_ballot64},
    {"mx.readlane", (void *)h_readlane},
    {"mx.readfirstlane", (void *)h_readfirstlane},
    {"mx.barrier", (void *)h_barrier},
    {"mx.barrier_isfirst", (void *)h_barrier_isfirst},
    {"mx.permute", (void *)h_permute},
    {"mx.wave_sync", (void *)h_wave_sync},
    {"mx.fence", (void *)h_fence},
    {"mx.fault", (void *)h_fault},
    {"mx.rcp_f32", (void *)h_rcp_f32},
    {"mx.rsq_f32", (void *)h_rsq_f32},
    {"mx.sqrt_f32", (void *)h_sqrt_f32},
    {"mx.exp2_f32", (void *)h_exp2_f32},
    {"mx.log2_f32", (void *)h_log2_f32},
    {"mx.sin_f32", (void *)h_sin_f32},
    {"mx.cos_f32", (void *)h_cos_f32},
    {"mx.rcp_f64", (void *)h_rcp_f64},
    {"mx.rsq_f64", (void *)h_rsq_f64},
    {"mx.sqrt_f64", (void *)h_sqrt_f64},
};

void *runner_hook_address(const char *hook)
{
	for (size_t i = 0; i < sizeof(hook_table) / sizeof(hook_table[0]); i++)
		if (!strcmp(hook_table[i].hook, hook))
			return hook_table[i].fn;
	return NULL;
}

/* ---- scheduling ---- */

static void lane_main(void)
{
	rt->cfg->entry();
	cur->state = LANE_DONE;
	swapcontext(&cur->ctx, &rt->sched);
}

static void resume(struct runner *r, struct lane *l)
{
	cur = l;
	l->state = LANE_READY;
	swapcontext(&r->sched, &l->ctx);
	cur = NULL;
}

/* Runs wave w until its lanes are all done or all at the barrier; 0, or -1 on failure. */
static int run_wave(struct runner *r, struct wave *w, uint32_t wave_index)
{
	uint32_t idx[RUNNER_MAX_WAVE], n = r->wave;

	for (;;) {
		struct lane *first;
		uint32_t ndone = 0;
		order(r, idx, n);
		for (uint32_t i = 0; i < n; i++)
			if (w->lanes[idx[i]].state == LANE_READY)
				resume(r, &w->lanes[idx[i]]);
		if (r->failed)
			return -1;
		first = NULL;
		for (uint32_t i = 0; i < n; i++) {
			if (w->lanes[i].state == LANE_DONE)
				ndone++;
			else if (!first)
				first = &w->lanes[i];
		}
		if (ndone == n) {
			w->done = true;
			return 0;
		}
		if (ndone) {
			fail(r, RUN_CONVERGENCE, first->site / 4,
			     "convergence violation (a raiser bug): in workgroup (%u,%u,%u) wave "
			     "%u, %u "
			     "lanes finished while the others wait at %s site 0x%x",
			     r->wg_id[0], r->wg_id[1], r->wg_id[2], wave_index, ndone,
			     kind_name[first->kind], first->site / 4);
			return -1;
		}
		for (uint32_t i = 1; i < n; i++) {
			struct lane *l = &w->lanes[i];
			if (l->kind != first->kind || l->site != first->site) {
				fail(r, RUN_CONVERGENCE, l->site / 4,
				     "convergence violation (a raiser bug): in workgroup "
				     "(%u,%u,%u) wave %u, "
				     "lane %u is at %s site 0x%x while lane 0 is at %s site 0x%x",
				     r->wg_id[0], r->wg_id[1], r->wg_id[2], wave_index, i,
				     kind_name[l->kind], l->site / 4, kind_name[first->kind],
				     first->site / 4);
				return -1;
			}
		}
		switch (first->kind) {
		case K_BALLOT: {
			uint64_t m = 0;
			for (uint32_t i = 0; i < n; i++)
				m |= (uint64_t)(w->lanes[i].a & 1u) << i;
			for (uint32_t i = 0; i < n; i++)
				w->lanes[i].result = m;
			break;
		}
		case K_READLANE:
			for (uint32_t i = 0; i < n; i++)
				w->lanes[i].result = w->lanes[w->lanes[i].b & (n - 1)].a;
			break;
		case K_PERMUTE: { /* in lane order: of two senders to one lane the higher wins */
			uint32_t got[RUNNER_MAX_WAVE] = {0};
			for (uint32_t i = 0; i < n; i++)
				if (w->lanes[i].b != ~0u)
					got[w->lanes[i].b & (n - 1)] = w->lanes[i].a;
			for (uint32_t i = 0; i < n; i++)
				w->lanes[i].result = got[i];
			break;
		}
		case K_READFIRSTLANE: {
			uint32_t exec = first->b, lane = exec ? (uint32_t)__builtin_ctz(exec) : 0;
			for (uint32_t i = 0; i < n; i++)
				w->lanes[i].result = w->lanes[lane].a;
			break;
		}
		case K_WAVE_SYNC: /* the lanes only meet */
			break;
		case K_BARRIER:
			w->at_barrier = true;
			return 0;
		case K_ISFIRST: {
			/* The first wave of the phase to signal: no 1 given yet, and no wave
			 * waiting (a wave at the wait has signalled). Whichever the schedule runs
			 * first. */
			uint32_t is_first = !r->isfirst_taken;
			for (uint32_t k = 0; k < r->nwaves; k++)
				is_first &= !r->waves[k].at_barrier;
			r->isfirst_taken = true;
			for (uint32_t i = 0; i < n; i++)
				w->lanes[i].result = is_first;
			break;
		}
		default:
			return -1;
		}
		for (uint32_t i = 0; i < n; i++)
			w->lanes[i].state = LANE_READY;
	}
}

/* Out of line: getcontext returns twice, which must not clobber the caller's loop state. */
static __attribute__((noinline)) void fiber_init(struct lane *l, uint8_t *stack)
{
	l->stack = stack;
	getcontext(&l->ctx);
	l->ctx.uc_stack.ss_sp = l->stack;
	l->ctx.uc_stack.ss_size = STACK_BYTES;
	l->ctx.uc_link = NULL;
	makecontext(&l->ctx, lane_main, 0);
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return a / b + (a % b != 0);
}

static int run_group(struct runner *r, const uint32_t id[3])
{
	const struct run_config *c = r->cfg;
	uint32_t size[3], items, nw, widx[1024 / 32 + 1], n = r->wave;

	for (int d = 0; d < 3; d++) {
		uint32_t start = id[d] * c->wg[d];
		size[d] = c->grid[d] - start < c->wg[d] ? c->grid[d] - start : c->wg[d];
		r->wg_id[d] = id[d];
	}
	items = size[0] * size[1] * size[2];
	nw = div_up(items, n);
	r->nwaves = nw;
	r->isfirst_taken = false;
	memset(r->lds, 0, c->lds_bytes);
	for (uint32_t w = 0; w < nw; w++) {
		struct wave *wv = &r->waves[w];
		uint32_t valid = items - w * n;
		wv->done = wv->at_barrier = false;
		wv->entry_exec = valid >= n ? (n == 64 ? ~UINT64_C(0) : UINT64_C(0xffffffff))
		                            : (UINT64_C(1) << valid) - 1;
		for (uint32_t i = 0; i < n; i++) {
			struct lane *l = &wv->lanes[i];
			uint32_t flat = w * n + i;
			l->index = i;
			l->state = LANE_READY;
			l->kind = K_NONE;
			l->packed_tid = 0;
			l->entry_exec = wv->entry_exec;
			if (flat < items) {
				uint32_t x = flat % size[0], y = (flat / size[0]) % size[1],
				         z = flat / (size[0] * size[1]);
				l->packed_tid = x | y << 10 | z << 20;
			}
			l->scratch = r->scratch + (size_t)flat * c->scratch_bytes;
			memset(l->scratch, 0, c->scratch_bytes);
			fiber_init(l, r->stacks + (size_t)flat * STACK_BYTES);
		}
	}
	r->rep->waves += nw;
	for (;;) {
		uint32_t live = 0, waiting = 0;
		order(r, widx, nw);
		for (uint32_t k = 0; k < nw; k++) {
			struct wave *wv = &r->waves[widx[k]];
			if (!wv->done && !wv->at_barrier && run_wave(r, wv, widx[k]))
				return -1;
		}
		for (uint32_t w = 0; w < nw; w++) {
			live += !r->waves[w].done;
			waiting += r->waves[w].at_barrier;
		}
		if (!live)
			return 0;
		if (waiting == live) {
			r->isfirst_taken = false; /* the next barrier phase */
			for (uint32_t w = 0; w < nw; w++)
				if (r->waves[w].at_barrier) {
					r->waves[w].at_barrier = false;
					for (uint32_t i = 0; i < n; i++)
						r->waves[w].lanes[i].state = LANE_READY;
				}
		}
	}
}

int runner_run(const struct run_config *c, struct run_report *rep)
{
	struct runner r = {0};
	uint32_t wave = c->wave == 64 ? 64 : 32;
	uint32_t wg_items = c->wg[0] * c->wg[1] * c->wg[2], maxw = div_up(wg_items, wave);
	uint32_t groups[3], id[3];
	unsigned csr = _mm_getcsr();
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	r.cfg = c;
	r.rep = rep;
	r.rng = c->seed;
	r.wave = wave;
	/* Round to nearest even, denormals neither flushed nor treated as zero (FTZ, DAZ off). */
	_mm_setcsr((csr & ~(0x6000u | 0x8000u | 0x0040u)) | 0x1f80u);
	r.waves = calloc(maxw, sizeof(*r.waves));
	r.lds = calloc(1, c->lds_bytes ? c->lds_bytes : 1);
	r.scratch = calloc((size_t)maxw * wave, c->scratch_bytes ? c->scratch_bytes : 1);
	r.stacks_bytes = (size_t)maxw * wave * STACK_BYTES;
	r.stacks = mmap(NULL, r.stacks_bytes, PROT_READ | PROT_WRITE,
	                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!r.waves || !r.lds || !r.scratch || r.stacks == MAP_FAILED) {
		rep->status = RUN_NOMEM;
		snprintf(rep->message, sizeof(rep->message), "out of memory for %u waves", maxw);
		rc = -1;
		goto out;
	}
	rt = &r;
	for (int d = 0; d < 3; d++)
		groups[d] = div_up(c->grid[d], c->wg[d]);
	for (id[2] = 0; id[2] < groups[2] && !rc; id[2]++)
		for (id[1] = 0; id[1] < groups[1] && !rc; id[1]++)
			for (id[0] = 0; id[0] < groups[0] && !rc; id[0]++) {
				rc = run_group(&r, id);
				rep->workgroups++;
				if (c->progress)
					c->progress(c->progress_ctx, rep->workgroups,
					            (size_t)groups[0] * groups[1] * groups[2]);
			}
	rt = NULL;
	if (!rc && (_mm_getcsr() & (0x6000u | 0x8000u | 0x0040u))) {
		rep->status = RUN_FPENV;
		snprintf(rep->message, sizeof(rep->message),
		         "the floating-point environment changed during the run (MXCSR 0x%x)",
		         _mm_getcsr());
		rc = -1;
	}
out:
	_mm_setcsr(csr);
	if (r.stacks && r.stacks != MAP_FAILED)
		munmap(r.stacks, r.stacks_bytes);
	free(r.waves);
	free(r.lds);
	free(r.scratch);
	return rc ? -1 : 0;
}
