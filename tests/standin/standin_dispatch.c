/*
 * The stand-in runtime's dispatch path: just enough HSA for a client to run a kernel on the
 * CPU, the way a HIP program drives ROCr.
 *
 *   memory     two regions of the agent: "global" (fine grained) and "kernarg" (fine
 *              grained, KERNARG); hsa_memory_allocate / hsa_memory_free.  Every allocation
 *              is host memory, so the client fills and reads it directly.
 *   symbols    hsa_executable_get_symbol_by_name ("<kernel>.kd") and symbol info: the kernel
 *              object is the .kd's address in the executable's copy of the loaded object (the
 *              bytes the loader received, after the intercept), kernarg / group / private
 *              segment sizes from the descriptor.
 *   signals    create / destroy / load / store / subtract / wait (a wait returns when the
 *              condition holds or after min(timeout, 10 s): never hangs).
 *   queues     hsa_queue_create: a ring of AQL packets, write and read indices, a doorbell.
 *              Storing to the doorbell processes the ring up to that index, synchronously.
 *
 * A kernel dispatch packet runs by dlopen()ing STANDIN_TRANSLATE_LIB (a libmirage_translate.so,
 * API v3) and calling its dispatch entry with the loaded object's bytes, the packet's geometry
 * and kernarg, and every live allocation as the regions the kernel may touch; then the
 * completion signal is decremented.  Anything else is an error that names itself on stderr
 * ("standin: ...") and reaches the queue's callback; the failed packet's completion signal is
 * left alone and the queue processes nothing more, as a GPU queue in error would.  Not
 * supported: packets other than kernel dispatch, dependencies, interrupts, images.
 */
#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kd.h"
#include "mirage_translate.h"
#include "standin.h"

#define REGION_GLOBAL  0x5a000010u
#define REGION_KERNARG 0x5a000011u
#define SIGNAL_MAGIC   0x5349474eu
#define QUEUE_MAGIC    0x51554555u
#define SYMBOL_MAGIC   0x53594d42u
#define GRANULE        4096u
#define WAIT_CAP_NS    (10ull * 1000 * 1000 * 1000)

struct allocation {
	void *base;
	size_t size;
	struct allocation *next;
};

struct symbol {
	uint32_t magic;
	char *name;
	const uint8_t *kd; /* in the loaded copy */
	struct symbol *next;
};

/* One object an executable loaded: a private copy of the bytes the loader received. */
struct loaded {
	const void *exec;
	uint8_t *bytes;
	size_t size;
	struct symbol *symbols;
	struct loaded *next;
};

struct queue;
struct signal {
	uint32_t magic;
	_Atomic hsa_signal_value_t value;
	struct queue *doorbell_of;
};

struct queue {
	hsa_queue_t q; /* first: the client's hsa_queue_t * is this */
	uint32_t magic;
	_Atomic uint64_t write, read;
	int failed;
	void (*callback)(hsa_status_t, hsa_queue_t *, void *);
	void *data;
	pthread_mutex_t lock;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct allocation *allocations;
static struct loaded *loaded_objects;

/* ---- loaded objects and symbols ---- */

void standin_keep_loaded(const void *exec, const void *bytes, size_t size)
{
	struct loaded *l = calloc(1, sizeof(*l));
	if (!l)
		return;
	l->bytes = aligned_alloc(GRANULE, (size + GRANULE - 1) / GRANULE * GRANULE);
	if (!l->bytes) {
		free(l);
		return;
	}
	memcpy(l->bytes, bytes, size);
	l->exec = exec;
	l->size = size;
	pthread_mutex_lock(&lock);
	l->next = loaded_objects;
	loaded_objects = l;
	pthread_mutex_unlock(&lock);
}

void standin_drop_loaded(const void *exec)
{
	pthread_mutex_lock(&lock);
	for (struct loaded **p = &loaded_objects; *p;) {
		struct loaded *l = *p;
		if (l->exec != exec) {
			p = &l->next;
			continue;
		}
		*p = l->next;
		while (l->symbols) {
			struct symbol *s = l->symbols;
			l->symbols = s->next;
			s->magic = 0;
			free(s->name);
			free(s);
		}
		free(l->bytes);
		free(l);
	}
	pthread_mutex_unlock(&lock);
}

/* The .kd of the ELF symbol called name, in l's bytes: NULL when absent or out of bounds. */
static const uint8_t *find_kd(const struct loaded *l, const char *name)
{
	Elf64_Ehdr eh;
	if (l->size < sizeof(eh))
		return NULL;
	memcpy(&eh, l->bytes, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > l->size ||
	    (size_t)eh.e_shnum * sizeof(Elf64_Shdr) > l->size - eh.e_shoff)
		return NULL;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(l->bytes + eh.e_shoff);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum ||
		    sh[i].sh_offset > l->size || sh[i].sh_size > l->size - sh[i].sh_offset)
			continue;
		const Elf64_Shdr *str = &sh[sh[i].sh_link];
		const Elf64_Sym *sym = (const Elf64_Sym *)(l->bytes + sh[i].sh_offset);
		if (str->sh_offset > l->size || str->sh_size > l->size - str->sh_offset)
			continue;
		for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++) {
			if (sym[k].st_name >= str->sh_size || sym[k].st_size != 64 ||
			    ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT ||
			    sym[k].st_shndx >= eh.e_shnum ||
			    strncmp((const char *)l->bytes + str->sh_offset + sym[k].st_name, name,
			            str->sh_size - sym[k].st_name))
				continue;
			const Elf64_Shdr *in = &sh[sym[k].st_shndx];
			uint64_t off = in->sh_offset + (sym[k].st_value - in->sh_addr);
			if (sym[k].st_value >= in->sh_addr && off <= l->size - 64)
				return l->bytes + off;
		}
	}
	return NULL;
}

hsa_status_t si_executable_get_symbol_by_name(hsa_executable_t executable, const char *symbol_name,
                                              const hsa_agent_t *agent,
                                              hsa_executable_symbol_t *symbol)
{
	hsa_status_t st = HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
	if (!symbol_name || !symbol)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&lock);
	for (struct loaded *l = loaded_objects; l; l = l->next) {
		const uint8_t *kd;
		struct symbol *s;
		if (l->exec != (const void *)(uintptr_t)executable.handle ||
		    !(kd = find_kd(l, symbol_name)))
			continue;
		s = calloc(1, sizeof(*s));
		if (!s || !(s->name = strdup(symbol_name))) {
			free(s);
			st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
			break;
		}
		s->magic = SYMBOL_MAGIC;
		s->kd = kd;
		s->next = l->symbols;
		l->symbols = s;
		symbol->handle = (uint64_t)(uintptr_t)s;
		st = HSA_STATUS_SUCCESS;
		break;
	}
	pthread_mutex_unlock(&lock);
	return st;
}

hsa_status_t si_executable_symbol_get_info(hsa_executable_symbol_t symbol,
                                           hsa_executable_symbol_info_t attribute, void *value)
{
	const struct symbol *s = (const struct symbol *)(uintptr_t)symbol.handle;
	struct kd d;
	if (!s || s->magic != SYMBOL_MAGIC)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
	switch (attribute) {
	case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
		*(hsa_symbol_kind_t *)value = HSA_SYMBOL_KIND_KERNEL;
		return HSA_STATUS_SUCCESS;
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
		*(uint32_t *)value = (uint32_t)strlen(s->name);
		return HSA_STATUS_SUCCESS;
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
		memcpy(value, s->name, strlen(s->name));
		return HSA_STATUS_SUCCESS;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
		*(uint64_t *)value = (uint64_t)(uintptr_t)s->kd;
		return HSA_STATUS_SUCCESS;
	/* The kernel descriptor's fields, read by name (codeobj/kd.h). */
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
		kd_decode(s->kd, &d);
		*(uint32_t *)value =
		    attribute == HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE
		        ? d.group_segment_fixed_size
		    : attribute == HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE
		        ? d.private_segment_fixed_size
		        : d.kernarg_size;
		return HSA_STATUS_SUCCESS;
	case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
		*(uint32_t *)value = 16;
		return HSA_STATUS_SUCCESS;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}

/* ---- memory ---- */

hsa_status_t si_agent_iterate_regions(hsa_agent_t agent, hsa_status_t (*cb)(hsa_region_t, void *),
                                      void *data)
{
	static const uint64_t regions[] = {REGION_GLOBAL, REGION_KERNARG};
	if (!standin_agent_valid(agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	for (size_t i = 0; i < 2; i++) {
		hsa_status_t st = cb((hsa_region_t){regions[i]}, data);
		if (st == HSA_STATUS_INFO_BREAK)
			return HSA_STATUS_SUCCESS;
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value)
{
	if (region.handle != REGION_GLOBAL && region.handle != REGION_KERNARG)
		return HSA_STATUS_ERROR_INVALID_REGION;
	switch (attribute) {
	case HSA_REGION_INFO_SEGMENT:
		*(hsa_region_segment_t *)value = HSA_REGION_SEGMENT_GLOBAL;
		return HSA_STATUS_SUCCESS;
	case HSA_REGION_INFO_GLOBAL_FLAGS:
		*(uint32_t *)value =
		    HSA_REGION_GLOBAL_FLAG_FINE_GRAINED |
		    (region.handle == REGION_KERNARG ? HSA_REGION_GLOBAL_FLAG_KERNARG : 0);
		return HSA_STATUS_SUCCESS;
	case HSA_REGION_INFO_SIZE:
	case HSA_REGION_INFO_ALLOC_MAX_SIZE:
		*(size_t *)value = (size_t)1 << 30;
		return HSA_STATUS_SUCCESS;
	case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
		*(bool *)value = true;
		return HSA_STATUS_SUCCESS;
	case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
	case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
		*(size_t *)value = GRANULE;
		return HSA_STATUS_SUCCESS;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}

hsa_status_t si_memory_allocate(hsa_region_t region, size_t size, void **ptr)
{
	struct allocation *a;
	size_t bytes;
	if (region.handle != REGION_GLOBAL && region.handle != REGION_KERNARG)
		return HSA_STATUS_ERROR_INVALID_REGION;
	if (!ptr || !size)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (size > (size_t)1 << 30)
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	bytes = (size + GRANULE - 1) / GRANULE * GRANULE;
	a = calloc(1, sizeof(*a));
	if (!a || !(a->base = aligned_alloc(GRANULE, bytes))) {
		free(a);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	memset(a->base, 0, bytes);
	a->size = bytes;
	pthread_mutex_lock(&lock);
	a->next = allocations;
	allocations = a;
	pthread_mutex_unlock(&lock);
	*ptr = a->base;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_memory_free(void *ptr)
{
	hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!ptr)
		return HSA_STATUS_SUCCESS;
	pthread_mutex_lock(&lock);
	for (struct allocation **p = &allocations; *p; p = &(*p)->next)
		if ((*p)->base == ptr) {
			struct allocation *a = *p;
			*p = a->next;
			free(a->base);
			free(a);
			st = HSA_STATUS_SUCCESS;
			break;
		}
	pthread_mutex_unlock(&lock);
	return st;
}

/* ---- signals ---- */

static struct signal *signal_of(hsa_signal_t h)
{
	struct signal *s = (struct signal *)(uintptr_t)h.handle;
	return s && s->magic == SIGNAL_MAGIC ? s : NULL;
}

static hsa_signal_t signal_new(hsa_signal_value_t initial, struct queue *doorbell_of)
{
	struct signal *s = calloc(1, sizeof(*s));
	if (!s)
		return (hsa_signal_t){0};
	s->magic = SIGNAL_MAGIC;
	atomic_store(&s->value, initial);
	s->doorbell_of = doorbell_of;
	return (hsa_signal_t){(uint64_t)(uintptr_t)s};
}

hsa_status_t si_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                              const hsa_agent_t *consumers, hsa_signal_t *signal)
{
	if (!signal)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*signal = signal_new(initial_value, NULL);
	return signal->handle ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t si_signal_destroy(hsa_signal_t h)
{
	struct signal *s = signal_of(h);
	if (!s || s->doorbell_of)
		return HSA_STATUS_ERROR_INVALID_SIGNAL;
	s->magic = 0;
	free(s);
	return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t si_signal_load(hsa_signal_t h)
{
	struct signal *s = signal_of(h);
	return s ? atomic_load(&s->value) : 0;
}

static void ring(struct queue *q, uint64_t index);

void si_signal_store(hsa_signal_t h, hsa_signal_value_t value)
{
	struct signal *s = signal_of(h);
	if (!s)
		return;
	atomic_store(&s->value, value);
	if (s->doorbell_of)
		ring(s->doorbell_of, (uint64_t)value);
}

void si_signal_subtract(hsa_signal_t h, hsa_signal_value_t value)
{
	struct signal *s = signal_of(h);
	if (s)
		atomic_fetch_sub(&s->value, value);
}

static int holds(hsa_signal_value_t v, hsa_signal_condition_t c, hsa_signal_value_t cmp)
{
	switch (c) {
	case HSA_SIGNAL_CONDITION_EQ:
		return v == cmp;
	case HSA_SIGNAL_CONDITION_NE:
		return v != cmp;
	case HSA_SIGNAL_CONDITION_LT:
		return v < cmp;
	default:
		return v >= cmp;
	}
}

hsa_signal_value_t si_signal_wait(hsa_signal_t h, hsa_signal_condition_t condition,
                                  hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                  hsa_wait_state_t wait_state_hint)
{
	struct signal *s = signal_of(h);
	struct timespec t0, t;
	uint64_t cap = timeout_hint < WAIT_CAP_NS ? timeout_hint : WAIT_CAP_NS;
	(void)wait_state_hint;
	if (!s)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		hsa_signal_value_t v = atomic_load(&s->value);
		if (holds(v, condition, compare_value))
			return v;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)t.tv_nsec -
		        (uint64_t)t0.tv_nsec >=
		    cap)
			return v; /* HSA allows a wait to return before the condition holds */
		sched_yield();
	}
}

/* ---- queues ---- */

static struct queue *queue_of(const hsa_queue_t *hq)
{
	struct queue *q = (struct queue *)hq;
	return q && q->magic == QUEUE_MAGIC ? q : NULL;
}

hsa_status_t si_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                             void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                             uint32_t private_segment_size, uint32_t group_segment_size,
                             hsa_queue_t **queue)
{
	struct queue *q;
	if (!standin_agent_valid(agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!queue || size < 2 || size > 4096 || (size & (size - 1)))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	q = calloc(1, sizeof(*q));
	if (!q)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	q->q.base_address = aligned_alloc(64, (size_t)size * 64);
	q->q.doorbell_signal = signal_new(0, q);
	if (!q->q.base_address || !q->q.doorbell_signal.handle) {
		free(q->q.base_address);
		free((void *)(uintptr_t)q->q.doorbell_signal.handle);
		free(q);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	/* Every slot starts INVALID: the packet processor stops at one. */
	for (uint32_t i = 0; i < size; i++) {
		uint16_t h = HSA_PACKET_TYPE_INVALID;
		memcpy((uint8_t *)q->q.base_address + (size_t)i * 64, &h, 2);
	}
	q->q.type = type;
	q->q.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
	q->q.size = size;
	q->magic = QUEUE_MAGIC;
	q->callback = callback;
	q->data = data;
	pthread_mutex_init(&q->lock, NULL);
	*queue = &q->q;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_queue_destroy(hsa_queue_t *hq)
{
	struct queue *q = queue_of(hq);
	struct signal *bell;
	if (!q)
		return HSA_STATUS_ERROR_INVALID_QUEUE;
	q->magic = 0;
	bell = signal_of(q->q.doorbell_signal);
	if (bell)
		bell->magic = 0;
	free(bell);
	free(q->q.base_address);
	pthread_mutex_destroy(&q->lock);
	free(q);
	return HSA_STATUS_SUCCESS;
}

uint64_t si_queue_load_read_index(const hsa_queue_t *hq)
{
	struct queue *q = queue_of(hq);
	return q ? atomic_load(&q->read) : 0;
}

uint64_t si_queue_load_write_index(const hsa_queue_t *hq)
{
	struct queue *q = queue_of(hq);
	return q ? atomic_load(&q->write) : 0;
}

void si_queue_store_write_index(const hsa_queue_t *hq, uint64_t value)
{
	struct queue *q = queue_of(hq);
	if (q)
		atomic_store(&q->write, value);
}

uint64_t si_queue_add_write_index(const hsa_queue_t *hq, uint64_t value)
{
	struct queue *q = queue_of(hq);
	return q ? atomic_fetch_add(&q->write, value) : 0;
}

/* ---- the packet processor ---- */

static pthread_once_t translator_once = PTHREAD_ONCE_INIT;
static const struct translate_api *translator;
static char translator_error[1024];

static void translator_load(void)
{
	const char *path = getenv("STANDIN_TRANSLATE_LIB");
	void *h;
	translate_get_api_fn get;
	if (!path || !*path) {
		snprintf(
		    translator_error, sizeof(translator_error),
		    "STANDIN_TRANSLATE_LIB is not set: it names the libmirage_translate.so that "
		    "runs kernel dispatches on the CPU");
		return;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(translator_error, sizeof(translator_error), "cannot load '%s': %s", path,
		         dlerror());
		return;
	}
	get = (translate_get_api_fn)dlsym(h, TRANSLATE_ENTRY_SYMBOL);
	translator = get ? get() : NULL;
	if (!translator || translator->version < 3 || !translator->dispatch) {
		unsigned v = translator ? translator->version : 0;
		snprintf(translator_error, sizeof(translator_error),
		         "'%s' has no dispatch entry (API version %u%s)", path, v,
		         v < 3 ? ", need 3" : ", its dispatch is NULL");
		translator = NULL;
	}
}

/* Fails the queue: the message on stderr, the callback told; no more packets run. */
static void queue_fail(struct queue *q, hsa_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void queue_fail(struct queue *q, hsa_status_t st, const char *fmt, ...)
{
	va_list ap;
	fputs("standin: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	q->failed = 1;
	if (q->callback)
		q->callback(st, &q->q, q->data);
}

/* The loaded object holding kernel object kd, and that .kd symbol's name; under lock. */
static const struct loaded *kernel_of(uint64_t kd, const char **name)
{
	for (const struct loaded *l = loaded_objects; l; l = l->next)
		for (const struct symbol *s = l->symbols; s; s = s->next)
			if ((uint64_t)(uintptr_t)s->kd == kd) {
				*name = s->name;
				return l;
			}
	return NULL;
}

static void run_dispatch(struct queue *q, uint64_t index, const hsa_kernel_dispatch_packet_t *p)
{
	struct tr_dispatch d = {0};
	struct tr_emulate_result res;
	struct tr_region *regions = NULL;
	const struct loaded *l;
	const char *name = NULL;
	size_t n = 0;

	pthread_once(&translator_once, translator_load);
	if (!translator) {
		queue_fail(q, HSA_STATUS_ERROR, "packet %llu: %s", (unsigned long long)index,
		           translator_error);
		return;
	}
	pthread_mutex_lock(&lock);
	l = kernel_of(p->kernel_object, &name);
	for (struct allocation *a = allocations; a; a = a->next)
		n++;
	regions = calloc(n + 1, sizeof(*regions));
	n = 0;
	for (struct allocation *a = allocations; regions && a; a = a->next) {
		uint64_t ka = p->kernarg_address ? (uint64_t)(uintptr_t)p->kernarg_address : 0,
		         base = (uint64_t)(uintptr_t)a->base;
		regions[n++] = (struct tr_region){a->base, a->size};
		if (ka >= base && ka < base + a->size) {
			d.kernarg = p->kernarg_address;
			d.kernarg_size = (size_t)(base + a->size - ka);
		}
	}
	if (!l || !regions) {
		pthread_mutex_unlock(&lock);
		free(regions);
		queue_fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
		           "packet %llu: kernel_object 0x%llx is no kernel symbol of a loaded "
		           "executable (hsa_executable_symbol_get_info gives it)",
		           (unsigned long long)index, (unsigned long long)p->kernel_object);
		return;
	}
	if (p->kernarg_address && !d.kernarg) {
		pthread_mutex_unlock(&lock);
		free(regions);
		queue_fail(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
		           "packet %llu: kernarg_address %p is not memory from hsa_memory_allocate",
		           (unsigned long long)index, p->kernarg_address);
		return;
	}
	d.code = l->bytes;
	d.code_size = l->size;
	d.kernel = name;
	d.grid[0] = p->grid_size_x;
	d.grid[1] = p->grid_size_y;
	d.grid[2] = p->grid_size_z;
	d.workgroup[0] = p->workgroup_size_x;
	d.workgroup[1] = p->workgroup_size_y;
	d.workgroup[2] = p->workgroup_size_z;
	d.group_segment_size = p->group_segment_size;
	d.regions = regions;
	d.nregions = n;
	d.schedule = getenv("STANDIN_SCHEDULE");
	/* The lock stays held: no allocation may be freed under the running kernel. */
	translator->dispatch(&d, &res);
	pthread_mutex_unlock(&lock);
	free(regions);
	if (res.exit_code)
		queue_fail(q, HSA_STATUS_ERROR_EXCEPTION, "packet %llu: exit %d: %s",
		           (unsigned long long)index, res.exit_code,
		           res.message ? res.message : "(no message)");
	else if (p->completion_signal.handle)
		si_signal_subtract(p->completion_signal, 1);
	translator->emulate_result_free(&res);
}

static void ring(struct queue *q, uint64_t index)
{
	pthread_mutex_lock(&q->lock);
	while (!q->failed && atomic_load(&q->read) <= index &&
	       atomic_load(&q->read) < atomic_load(&q->write)) {
		uint64_t r = atomic_load(&q->read);
		uint8_t *slot = (uint8_t *)q->q.base_address + (size_t)(r % q->q.size) * 64;
		uint16_t header = __atomic_load_n((uint16_t *)slot, __ATOMIC_ACQUIRE);
		unsigned type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
		if (type == HSA_PACKET_TYPE_INVALID)
			break; /* not written yet */
		if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH)
			run_dispatch(q, r, (const hsa_kernel_dispatch_packet_t *)slot);
		else
			queue_fail(
			    q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
			    "packet %llu: type %u is not supported (the stand-in runs kernel "
			    "dispatch packets only)",
			    (unsigned long long)r, type);
		if (q->failed)
			break;
		__atomic_store_n((uint16_t *)slot, (uint16_t)HSA_PACKET_TYPE_INVALID,
		                 __ATOMIC_RELEASE);
		atomic_store(&q->read, r + 1);
	}
	pthread_mutex_unlock(&q->lock);
}
