/*
 * The stand-in HIP runtime (libamdhip64.so.6) for tests: written from the rules of
 * docs/hip.md, not from the HIP runtime's code, and with its own small bundle reader (not
 * codeobj's, which is what the tests judge).  One device, whose target id is
 * STANDIN_HIP_DEVICE (default gfx942:sramecc+:xnack-).  It registers fat binaries, picks the
 * entry for the device by the runtime's rule (the processor, and xnack/sramecc absent or
 * equal), applies the second gate (the ELF's e_flags machine is the device's), and answers
 * hipErrorNoBinaryForGpu (209) when nothing fits, at the launch as the runtime does.  Device
 * memory is host memory here (hipMalloc tracks each allocation).  A launch runs nothing: it
 * records, in STANDIN_RECORD_DIR, the code object (hip-launch-N.co), what was launched
 * (hip-launch-N.txt) and, when every pointer argument lies in an allocation, a launch file for
 * `mirage emulate` (hip-launch-N.json, the buffers' bytes as they were at the launch in
 * hip-launch-N-bK.bin, each buffer written to hip-launch-N-bK.out), the arguments laid out by
 * the code object's own metadata (.args), as the runtime lays them out; and an uncompressed
 * fat binary as it was registered (hip-fatbin-N.bundle), when it is first read.
 */
#include <elf.h>
#include <msgpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define EXPORT __attribute__((visibility("default")))

typedef int hipError_t;
enum {
	HIP_SUCCESS = 0,
	HIP_ERROR_INVALID_VALUE = 1,
	HIP_ERROR_OUT_OF_MEMORY = 2,
	HIP_ERROR_FILE_NOT_FOUND = 301,
	HIP_ERROR_INVALID_IMAGE = 200,
	HIP_ERROR_NO_BINARY_FOR_GPU = 209,
	HIP_ERROR_INVALID_DEVICE_FUNCTION = 98,
	HIP_ERROR_NOT_FOUND = 500,
};

struct dim3 {
	uint32_t x, y, z;
};

/*
 * One registered fat binary or loaded module: the code object chosen for the device.  A
 * registered fat binary is only read at its first launch, as the runtime defers it.
 */
struct module {
	const void *fatbin; /* registered, not read yet */
	uint8_t *co;        /* NULL: no entry fits (why says so) */
	size_t size;
	char why[256];
};

struct function {
	const void *host; /* the host stub (registered) or NULL (hipModuleGetFunction) */
	struct module *m;
	char name[256];
};

static struct function functions[256];
static size_t nfunctions;
static unsigned launches;

static const char *device(void)
{
	const char *d = getenv("STANDIN_HIP_DEVICE");
	return d && *d ? d : "gfx942:sramecc+:xnack-";
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/* The value of a feature in a target id: '+', '-' or 0. */
static char feature_of(const char *id, const char *f)
{
	size_t n = strlen(f);
	for (const char *p = strchr(id, ':'); p; p = strchr(p + 1, ':'))
		if (!strncmp(p + 1, f, n) && (p[n + 1] == '+' || p[n + 1] == '-'))
			return p[n + 1];
	return 0;
}

static int compatible(const char *entry, const char *dev)
{
	size_t a = strcspn(entry, ":"), b = strcspn(dev, ":");
	if (a != b || strncmp(entry, dev, a))
		return 0;
	for (int i = 0; i < 2; i++) {
		const char *f = i ? "sramecc" : "xnack";
		char e = feature_of(entry, f);
		if (e && e != feature_of(dev, f))
			return 0;
	}
	return 1;
}

/* EF_AMDGPU_MACH of the processors the tests use (LLVM's AMDGPUUsage, "ELF Header"). */
static unsigned mach_of(const char *target)
{
	static const struct {
		const char *name;
		unsigned mach;
	} t[] = {{"gfx942", 0x4c}, {"gfx950", 0x4f}, {"gfx1250", 0x49}, {"gfx1251", 0x5a}};
	size_t n = strcspn(target, ":");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strlen(t[i].name) == n && !strncmp(t[i].name, target, n))
			return t[i].mach;
	return 0;
}

/* The second gate: the chosen ELF's own machine must be the device's. */
static int gate(struct module *m)
{
	if (m->size < 64 || memcmp(m->co, "\177ELF", 4)) {
		snprintf(m->why, sizeof(m->why), "the code object is not an ELF file");
		return -1;
	}
	unsigned mach = get64(m->co + 48) & 0xff;
	if (mach != mach_of(device())) {
		snprintf(m->why, sizeof(m->why),
		         "The program ISA (e_flags machine 0x%x) is not compatible with the device "
		         "ISA %s",
		         mach, device());
		return -1;
	}
	return 0;
}

/* A CCOB around a bundle: its uncompressed bytes (malloc'ed), or NULL. */
static uint8_t *uncompress_ccob(const uint8_t *d, size_t size, size_t *out_size)
{
	unsigned version = d[4] | d[5] << 8, method = d[6] | d[7] << 8;
	size_t head = version == 2 ? 24 : 32, raw, total;
	uint8_t *out;

	/* Version 1 has no total size, and a registered wrapper gives no size either. */
	if (size < head || version < 2 || version > 3)
		return NULL;
	if (version == 3) {
		total = get64(d + 8);
		raw = get64(d + 16);
	} else {
		total = d[8] | d[9] << 8 | d[10] << 16 | (uint32_t)d[11] << 24;
		raw = d[12] | d[13] << 8 | d[14] << 16 | (uint32_t)d[15] << 24;
	}
	if (total > size || total < head || raw > (256u << 20) || !(out = malloc(raw ? raw : 1)))
		return NULL;
	if (method == 1) {
		size_t got = ZSTD_decompress(out, raw, d + head, total - head);
		if (ZSTD_isError(got) || got != raw) {
			free(out);
			return NULL;
		}
	} else {
		uLongf got = raw;
		if (uncompress(out, &got, d + head, total - head) != Z_OK || got != raw) {
			free(out);
			return NULL;
		}
	}
	*out_size = raw;
	return out;
}

/* The entry of a bundle (uncompressed or CCOB) for the device, into m. */
static void choose(struct module *m, const uint8_t *d, size_t size)
{
	uint8_t *raw = NULL;
	size_t n, pos = 32;

	if (size >= 4 && !memcmp(d, "CCOB", 4)) {
		if (!(raw = uncompress_ccob(d, size, &size))) {
			snprintf(m->why, sizeof(m->why),
			         "a compressed bundle that does not decompress");
			return;
		}
		d = raw;
	}
	if (size < 32 || memcmp(d, "__CLANG_OFFLOAD_BUNDLE__", 24)) {
		snprintf(m->why, sizeof(m->why), "not an offload bundle");
		free(raw);
		return;
	}
	n = get64(d + 24);
	snprintf(m->why, sizeof(m->why),
	         "no kernel image is available for execution on the device "
	         "(no entry of the fat binary is for %s)",
	         device());
	for (size_t i = 0; i < n && pos + 24 <= size; i++) {
		uint64_t off = get64(d + pos), len = get64(d + pos + 8),
		         idlen = get64(d + pos + 16);
		char id[512];
		if (idlen >= sizeof(id) || pos + 24 + idlen > size)
			break;
		memcpy(id, d + pos + 24, idlen);
		id[idlen] = '\0';
		pos += 24 + idlen;
		const char *target = strstr(id, "--");
		if (strncmp(id, "hip", 3) || !target || !len || off > size || len > size - off ||
		    !compatible(target + 2, device()))
			continue;
		m->co = malloc(len);
		memcpy(m->co, d + off, len);
		m->size = len;
		if (gate(m)) {
			free(m->co);
			m->co = NULL;
		}
		break;
	}
	free(raw);
}

/* The bytes an uncompressed bundle covers (its header, entries and payloads), or 0. */
static size_t bundle_extent(const uint8_t *d)
{
	size_t n, pos = 32, extent = 32;

	if (memcmp(d, "__CLANG_OFFLOAD_BUNDLE__", 24))
		return 0;
	n = get64(d + 24);
	for (size_t i = 0; i < n && i < 4096; i++) {
		uint64_t off = get64(d + pos), len = get64(d + pos + 8),
		         idlen = get64(d + pos + 16);
		if (idlen > 1024)
			return 0;
		pos += 24 + idlen;
		extent = pos > extent ? pos : extent;
		extent = off + len > extent ? off + len : extent;
	}
	return extent;
}

static int write_file(const char *path, const void *data, size_t size);

/* STANDIN_RECORD_DIR/hip-fatbin-N.bundle: a registered uncompressed bundle, as given. */
static void record_fatbin(const void *fatbin)
{
	const char *dir = getenv("STANDIN_RECORD_DIR");
	static unsigned n;
	char path[4096];
	size_t extent;

	if (!dir || !(extent = bundle_extent(fatbin)))
		return;
	snprintf(path, sizeof(path), "%s/hip-fatbin-%u.bundle", dir, ++n);
	write_file(path, fatbin, extent);
}

EXPORT hipError_t hipModuleGetFunction(void **function, void *module, const char *name);
EXPORT hipError_t hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                        void *stream, void **params, void **extra);

/* The wrapper clang emits in .hipFatBinSegment. */
struct fatbin_wrapper {
	uint32_t magic, version;
	const void *binary;
	const void *unused;
};

EXPORT void **__hipRegisterFatBinary(const void *data)
{
	const struct fatbin_wrapper *w = data;
	struct module *m = calloc(1, sizeof(*m));

	if (!w || w->magic != 0x48495046u || w->version != 1 || !w->binary)
		snprintf(m->why, sizeof(m->why),
		         "a fat binary wrapper with a bad magic or version");
	else
		m->fatbin = w->binary;
	return (void **)m;
}

EXPORT void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
                                  const char *device_name, unsigned thread_limit, void *tid,
                                  void *bid, void *block, void *grid, int *wsize)
{
	if (nfunctions == sizeof(functions) / sizeof(functions[0]))
		return;
	functions[nfunctions].host = host;
	functions[nfunctions].m = (struct module *)modules;
	snprintf(functions[nfunctions].name, sizeof(functions[0].name), "%s", device_name);
	nfunctions++;
}

EXPORT void __hipUnregisterFatBinary(void **modules)
{
	(void)modules; /* kept: functions still point at it, and the process ends */
}

EXPORT hipError_t hipModuleLoadData(void **module, const void *image)
{
	struct module *m = calloc(1, sizeof(*m));
	const uint8_t *d = image;

	if (!module || !image)
		return HIP_ERROR_INVALID_VALUE;
	if (!memcmp(d, "\177ELF", 4)) {
		/* A bare code object: its extent is its section headers' end. */
		uint64_t shoff = get64(d + 40);
		unsigned shentsize = d[58] | d[59] << 8, shnum = d[60] | d[61] << 8;
		m->size = (size_t)(shoff + (uint64_t)shentsize * shnum);
		m->co = malloc(m->size);
		memcpy(m->co, d, m->size);
		if (gate(m)) {
			free(m->co);
			m->co = NULL;
		}
	} else {
		choose(m, d, 64u << 20);
	}
	*module = m;
	if (!m->co) {
		fprintf(stderr, "standin_hip: hipModuleLoadData: %s\n", m->why);
		return HIP_ERROR_NO_BINARY_FOR_GPU;
	}
	return HIP_SUCCESS;
}

EXPORT hipError_t hipModuleLoadDataEx(void **module, const void *image, unsigned n, int *options,
                                      void **values)
{
	(void)n, (void)options, (void)values; /* JIT options: nothing to compile here */
	return hipModuleLoadData(module, image);
}

/* hipModuleLoad: the whole file, then as hipModuleLoadData. */
EXPORT hipError_t hipModuleLoad(void **module, const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	static uint8_t image[4u << 20];
	hipError_t rc;

	if (!f)
		return HIP_ERROR_FILE_NOT_FOUND;
	if (!fread(image, 1, sizeof(image), f)) {
		fclose(f);
		return HIP_ERROR_INVALID_IMAGE;
	}
	fclose(f);
	rc = hipModuleLoadData(module, image);
	return rc;
}

/* hipGetProcAddress (HIP 6.2): the runtime's own entries, by name. */
EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags,
                                    void *status)
{
	static const struct {
		const char *name;
		void *fn;
	} table[] = {
	    {"hipModuleLoadData", (void *)hipModuleLoadData},
	    {"hipModuleLoadDataEx", (void *)hipModuleLoadDataEx},
	    {"hipModuleLoad", (void *)hipModuleLoad},
	    {"hipModuleGetFunction", (void *)hipModuleGetFunction},
	    {"hipModuleLaunchKernel", (void *)hipModuleLaunchKernel},
	};
	(void)version, (void)flags, (void)status;
	if (!symbol || !pfn)
		return HIP_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(symbol, table[i].name)) {
			*pfn = table[i].fn;
			return HIP_SUCCESS;
		}
	*pfn = NULL;
	return HIP_ERROR_NOT_FOUND;
}

EXPORT hipError_t hipModuleGetFunction(void **function, void *module, const char *name)
{
	if (!function || !module || !name || nfunctions == sizeof(functions) / sizeof(functions[0]))
		return HIP_ERROR_INVALID_VALUE;
	functions[nfunctions].m = module;
	snprintf(functions[nfunctions].name, sizeof(functions[0].name), "%s", name);
	*function = &functions[nfunctions++];
	return HIP_SUCCESS;
}

/* hipMalloc's allocations: device memory is host memory in the stand-in. */
static struct allocation {
	uint8_t *p;
	size_t size;
} allocations[64];

EXPORT hipError_t hipMalloc(void **p, size_t size)
{
	for (size_t i = 0; p && i < sizeof(allocations) / sizeof(allocations[0]); i++)
		if (!allocations[i].p) {
			if (!(allocations[i].p = calloc(1, size ? size : 1)))
				return HIP_ERROR_OUT_OF_MEMORY;
			allocations[i].size = size;
			*p = allocations[i].p;
			return HIP_SUCCESS;
		}
	return HIP_ERROR_INVALID_VALUE;
}

EXPORT hipError_t hipFree(void *p)
{
	for (size_t i = 0; p && i < sizeof(allocations) / sizeof(allocations[0]); i++)
		if (allocations[i].p == p) {
			free(p);
			allocations[i].p = NULL;
			return HIP_SUCCESS;
		}
	return p ? HIP_ERROR_INVALID_VALUE : HIP_SUCCESS;
}

EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t size, int kind)
{
	(void)kind; /* every direction is a host copy here */
	if (size && (!dst || !src))
		return HIP_ERROR_INVALID_VALUE;
	memmove(dst, src, size);
	return HIP_SUCCESS;
}

static long allocation_of(const void *p)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < sizeof(allocations) / sizeof(allocations[0]); i++)
		if (allocations[i].p && b >= allocations[i].p &&
		    b < allocations[i].p + allocations[i].size)
			return (long)i;
	return -1;
}

/* One explicit argument of a kernel, from its metadata. */
struct arg {
	uint64_t offset, size;
	int buffer; /* a global_buffer: a pointer */
};

static const msgpack_object *map_get(const msgpack_object *map, const char *key)
{
	if (map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object_kv *kv = &map->via.map.ptr[i];
		if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == strlen(key) &&
		    !memcmp(kv->key.via.str.ptr, key, strlen(key)))
			return &kv->val;
	}
	return NULL;
}

static int str_is(const msgpack_object *o, const char *s)
{
	return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == strlen(s) &&
	       !memcmp(o->via.str.ptr, s, strlen(s));
}

/*
 * The explicit arguments of kernel name from the code object's NT_AMDGPU_METADATA note
 * (the first one: the tests' objects have one).  Returns their number, or -1.
 */
static int kernel_args(const uint8_t *co, size_t size, const char *name, struct arg *out, int max)
{
	const Elf64_Ehdr *eh = (const void *)co;
	int n = -1;

	if (size < sizeof(*eh) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return -1;
	for (unsigned s = 0; s < eh->e_shnum && n < 0; s++) {
		const Elf64_Shdr *sh = (const void *)(co + eh->e_shoff + s * sizeof(Elf64_Shdr));
		size_t pos = sh->sh_offset;
		if (sh->sh_type != SHT_NOTE || sh->sh_offset > size || sh->sh_size > size - pos)
			continue;
		while (pos + 12 <= sh->sh_offset + sh->sh_size && n < 0) {
			const Elf64_Nhdr *nh = (const void *)(co + pos);
			size_t name_at = pos + 12, desc_at = name_at + ((nh->n_namesz + 3) & ~3u);
			msgpack_unpacked u;
			if (desc_at + nh->n_descsz > sh->sh_offset + sh->sh_size)
				break;
			pos = desc_at + ((nh->n_descsz + 3) & ~3u);
			if (nh->n_type != 32 || nh->n_namesz != 7 ||
			    memcmp(co + name_at, "AMDGPU", 7))
				continue;
			msgpack_unpacked_init(&u);
			if (msgpack_unpack_next(&u, (const char *)co + desc_at, nh->n_descsz,
			                        NULL) == MSGPACK_UNPACK_SUCCESS) {
				const msgpack_object *ks = map_get(&u.data, "amdhsa.kernels");
				for (uint32_t k = 0; ks && ks->type == MSGPACK_OBJECT_ARRAY &&
				                     k < ks->via.array.size && n < 0;
				     k++) {
					const msgpack_object *kn = &ks->via.array.ptr[k];
					const msgpack_object *args = map_get(kn, ".args");
					if (!str_is(map_get(kn, ".name"), name))
						continue;
					n = 0;
					for (uint32_t a = 0;
					     args && args->type == MSGPACK_OBJECT_ARRAY &&
					     a < args->via.array.size && n < max;
					     a++) {
						const msgpack_object *m = &args->via.array.ptr[a];
						const msgpack_object *kind =
						    map_get(m, ".value_kind");
						const msgpack_object *off = map_get(m, ".offset");
						const msgpack_object *sz = map_get(m, ".size");
						if (!kind || kind->type != MSGPACK_OBJECT_STR ||
						    !off || !sz ||
						    (kind->via.str.size > 7 &&
						     !memcmp(kind->via.str.ptr, "hidden_", 7)))
							continue;
						out[n++] =
						    (struct arg){off->via.u64, sz->via.u64,
						                 str_is(kind, "global_buffer")};
					}
				}
			}
			msgpack_unpacked_destroy(&u);
		}
	}
	return n;
}

static int write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(data, 1, size, f) == size;
	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/*
 * hip-launch-N.json: the launch for `mirage emulate` (docs/emulate.md), or a line in
 * hip-launch-N.txt saying why it cannot be written.
 */
static void record_launch_file(const char *dir, unsigned n, const struct function *f,
                               struct dim3 grid, struct dim3 block, size_t shmem, void **params,
                               FILE *txt)
{
	struct arg args[64];
	int nargs = kernel_args(f->m->co, f->m->size, f->name, args, 64);
	int used[sizeof(allocations) / sizeof(allocations[0])] = {0};
	char path[4096];
	FILE *out;

	if (nargs < 0 || (nargs && !params)) {
		fprintf(txt, "no launch file: %s\n",
		        nargs < 0 ? "the kernel has no metadata" : "no kernel arguments given");
		return;
	}
	for (int i = 0; i < nargs; i++) {
		void *p;
		long a;
		if (!args[i].buffer)
			continue;
		memcpy(&p, params[i], sizeof(p));
		if ((a = allocation_of(p)) < 0) {
			fprintf(
			    txt,
			    "no launch file: argument %d (%p) is not in a hipMalloc allocation\n",
			    i, p);
			return;
		}
		used[a] = 1;
	}
	snprintf(path, sizeof(path), "%s/hip-launch-%u.json", dir, n);
	if (!(out = fopen(path, "w")))
		return;
	fprintf(out,
	        "{\"code_object\": \"hip-launch-%u.co\", \"kernel\": \"%s\",\n"
	        " \"grid\": [%u, %u, %u], \"workgroup\": [%u, %u, %u], \"dynamic_lds\": %zu,\n"
	        " \"buffers\": {",
	        n, f->name, grid.x * block.x, grid.y * block.y, grid.z * block.z, block.x, block.y,
	        block.z, shmem);
	const char *sep = "";
	for (size_t a = 0; a < sizeof(allocations) / sizeof(allocations[0]); a++) {
		if (!used[a])
			continue;
		snprintf(path, sizeof(path), "%s/hip-launch-%u-b%zu.bin", dir, n, a);
		write_file(path, allocations[a].p, allocations[a].size);
		fprintf(
		    out,
		    "%s\n  \"b%zu\": {\"size\": %zu, \"init\": \"file:hip-launch-%u-b%zu.bin\", "
		    "\"output\": \"hip-launch-%u-b%zu.out\"}",
		    sep, a, allocations[a].size, n, a, n, a);
		sep = ",";
	}
	fprintf(out, "},\n \"args\": [");
	for (int i = 0; i < nargs; i++) {
		fprintf(out, "%s", i ? ", " : "");
		if (args[i].buffer) {
			uint8_t *p;
			memcpy(&p, params[i], sizeof(p));
			long a = allocation_of(p);
			fprintf(out, "{\"buffer\": \"b%ld\", \"offset\": %td}", a,
			        p - allocations[a].p);
		} else {
			fprintf(out, "{\"hex\": \"");
			for (uint64_t b = 0; b < args[i].size; b++)
				fprintf(out, "%02x", ((const uint8_t *)params[i])[b]);
			fprintf(out, "\"}");
		}
	}
	fprintf(out, "]}\n");
	fclose(out);
}

/* The launch: the module's code object, the kernel and its arguments, recorded; nothing runs. */
static hipError_t launch(const struct function *f, struct dim3 grid, struct dim3 block,
                         size_t shmem, void **params)
{
	const char *dir = getenv("STANDIN_RECORD_DIR");
	char path[4096];
	FILE *out;

	if (f->m->fatbin) {
		record_fatbin(f->m->fatbin);
		choose(f->m, f->m->fatbin, 64u << 20); /* the bundle's own sizes bound the read */
		f->m->fatbin = NULL;
	}
	if (!f->m->co) {
		fprintf(stderr, "standin_hip: launching '%s': %s\n", f->name, f->m->why);
		return HIP_ERROR_NO_BINARY_FOR_GPU;
	}
	launches++;
	if (!dir)
		return HIP_SUCCESS;
	snprintf(path, sizeof(path), "%s/hip-launch-%u.co", dir, launches);
	write_file(path, f->m->co, f->m->size);
	snprintf(path, sizeof(path), "%s/hip-launch-%u.txt", dir, launches);
	if ((out = fopen(path, "w"))) {
		fprintf(out, "device %s\nkernel %s\ngrid %u %u %u\nblock %u %u %u\n", device(),
		        f->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
		record_launch_file(dir, launches, f, grid, block, shmem, params, out);
		fclose(out);
	}
	return HIP_SUCCESS;
}

EXPORT hipError_t hipLaunchKernel(const void *host, struct dim3 grid, struct dim3 block,
                                  void **args, size_t shmem, void *stream)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (functions[i].host && functions[i].host == host)
			return launch(&functions[i], grid, block, shmem, args);
	return HIP_ERROR_INVALID_DEVICE_FUNCTION;
}

EXPORT hipError_t hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                        void *stream, void **params, void **extra)
{
	if (!function)
		return HIP_ERROR_INVALID_VALUE;
	return launch(function, (struct dim3){gx, gy, gz}, (struct dim3){bx, by, bz}, shmem,
	              params);
}

/* kernel<<<grid, block>>>: clang pushes the configuration, the stub pops it and launches. */
static struct {
	struct dim3 grid, block;
	size_t shmem;
	void *stream;
} configs[16];
static unsigned nconfigs;

EXPORT hipError_t __hipPushCallConfiguration(struct dim3 grid, struct dim3 block, size_t shmem,
                                             void *stream)
{
	if (nconfigs == sizeof(configs) / sizeof(configs[0]))
		return HIP_ERROR_INVALID_VALUE;
	configs[nconfigs].grid = grid;
	configs[nconfigs].block = block;
	configs[nconfigs].shmem = shmem;
	configs[nconfigs++].stream = stream;
	return HIP_SUCCESS;
}

EXPORT hipError_t __hipPopCallConfiguration(struct dim3 *grid, struct dim3 *block, size_t *shmem,
                                            void **stream)
{
	if (!nconfigs)
		return HIP_ERROR_INVALID_VALUE;
	nconfigs--;
	*grid = configs[nconfigs].grid;
	*block = configs[nconfigs].block;
	*shmem = configs[nconfigs].shmem;
	*stream = configs[nconfigs].stream;
	return HIP_SUCCESS;
}

EXPORT const char *hipGetErrorName(hipError_t e)
{
	switch (e) {
	case HIP_SUCCESS:
		return "hipSuccess";
	case HIP_ERROR_INVALID_VALUE:
		return "hipErrorInvalidValue";
	case HIP_ERROR_INVALID_IMAGE:
		return "hipErrorInvalidImage";
	case HIP_ERROR_NO_BINARY_FOR_GPU:
		return "hipErrorNoBinaryForGpu";
	case HIP_ERROR_INVALID_DEVICE_FUNCTION:
		return "hipErrorInvalidDeviceFunction";
	default:
		return "hipErrorUnknown";
	}
}
