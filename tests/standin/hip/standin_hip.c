/*
 * The stand-in HIP runtime (libamdhip64.so.6) for tests: written from the rules of
 * docs/hip.md, not from the HIP runtime's code, and with its own small bundle reader (not
 * codeobj's, which is what the tests judge).  One device, whose target id is
 * STANDIN_HIP_DEVICE (default gfx942:sramecc+:xnack-).  It registers fat binaries, picks the
 * entry for the device by the runtime's rule (the processor, and xnack/sramecc absent or
 * equal), applies the second gate (the ELF's e_flags machine is the device's), and answers
 * hipErrorNoBinaryForGpu (209) when nothing fits, at the launch as the runtime does.  A
 * launch runs nothing: it records the code object and the kernel in STANDIN_RECORD_DIR
 * (hip-launch-N.co, hip-launch-N.txt) for the test to judge and emulate.
 */
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
	HIP_ERROR_INVALID_IMAGE = 200,
	HIP_ERROR_NO_BINARY_FOR_GPU = 209,
	HIP_ERROR_INVALID_DEVICE_FUNCTION = 98,
	HIP_ERROR_NOT_FOUND = 500,
};

struct dim3 {
	uint32_t x, y, z;
};

/* One registered fat binary or loaded module: the code object chosen for the device. */
struct module {
	uint8_t *co; /* NULL: no entry fits (why says so) */
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
		choose(m, w->binary, 64u << 20); /* the bundle's own sizes bound the read */
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

EXPORT hipError_t hipModuleGetFunction(void **function, void *module, const char *name)
{
	if (!function || !module || !name || nfunctions == sizeof(functions) / sizeof(functions[0]))
		return HIP_ERROR_INVALID_VALUE;
	functions[nfunctions].m = module;
	snprintf(functions[nfunctions].name, sizeof(functions[0].name), "%s", name);
	*function = &functions[nfunctions++];
	return HIP_SUCCESS;
}

/* The launch: the module's code object and the kernel, recorded; nothing runs. */
static hipError_t launch(const struct function *f, struct dim3 grid, struct dim3 block)
{
	const char *dir = getenv("STANDIN_RECORD_DIR");
	char path[4096];
	FILE *out;

	if (!f->m->co) {
		fprintf(stderr, "standin_hip: launching '%s': %s\n", f->name, f->m->why);
		return HIP_ERROR_NO_BINARY_FOR_GPU;
	}
	launches++;
	if (!dir)
		return HIP_SUCCESS;
	snprintf(path, sizeof(path), "%s/hip-launch-%u.co", dir, launches);
	if ((out = fopen(path, "wb"))) {
		fwrite(f->m->co, 1, f->m->size, out);
		fclose(out);
	}
	snprintf(path, sizeof(path), "%s/hip-launch-%u.txt", dir, launches);
	if ((out = fopen(path, "w"))) {
		fprintf(out, "device %s\nkernel %s\ngrid %u %u %u\nblock %u %u %u\n", device(),
		        f->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
		fclose(out);
	}
	return HIP_SUCCESS;
}

EXPORT hipError_t hipLaunchKernel(const void *host, struct dim3 grid, struct dim3 block,
                                  void **args, size_t shmem, void *stream)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (functions[i].host && functions[i].host == host)
			return launch(&functions[i], grid, block);
	return HIP_ERROR_INVALID_DEVICE_FUNCTION;
}

EXPORT hipError_t hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                        void *stream, void **params, void **extra)
{
	if (!function)
		return HIP_ERROR_INVALID_VALUE;
	return launch(function, (struct dim3){gx, gy, gz}, (struct dim3){bx, by, bz});
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
