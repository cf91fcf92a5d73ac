/*
 * The stand-in HSA runtime's behaviour: one GPU agent described by the
 * environment (STANDIN_AGENT_GFX, STANDIN_ASIC_REV), code object readers
 * that, like ROCr's, keep only the caller's pointer, executables that check
 * each object against the agent and record the exact bytes they were given
 * (STANDIN_RECORD_DIR/load-<n>.co) and keep a copy for the dispatch path
 * (standin_dispatch.c: memory, queues, signals, kernels run on the CPU).
 * A test double: never installed.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hsa/hsa_ext_amd.h>

#include "gfx_table.h"
#include "standin.h"

#define AGENT_HANDLE 0x5a000001u
#define ISA_HANDLE   0x5a000002u
#define READER_MAGIC 0x52454144u
#define EXEC_MAGIC   0x45584543u

struct reader {
	uint32_t magic;
	const void *bytes; /* the caller's memory (memory readers) or owned (file readers) */
	size_t size;
	void *owned;
};

struct executable {
	uint32_t magic;
	int frozen;
	unsigned loads;
};

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;
static atomic_uint load_counter;

static const char *agent_gfx(void)
{
	const char *g = getenv("STANDIN_AGENT_GFX");
	return g && *g ? g : "gfx1250";
}

hsa_status_t si_init(void)
{
	pthread_mutex_lock(&init_lock);
	if (init_count++ == 0)
		standin_tools_load();
	pthread_mutex_unlock(&init_lock);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_shut_down(void)
{
	pthread_mutex_lock(&init_lock);
	if (init_count == 0) {
		pthread_mutex_unlock(&init_lock);
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	}
	if (--init_count == 0)
		standin_tools_unload();
	pthread_mutex_unlock(&init_lock);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_status_string(hsa_status_t status, const char **string)
{
	switch (status) {
	case HSA_STATUS_SUCCESS:
		*string = "HSA_STATUS_SUCCESS";
		break;
	case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
		*string = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: the code object is invalid";
		break;
	case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
		*string = "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: the code object's ISA does not "
		          "match the agent";
		break;
	case HSA_STATUS_ERROR_INVALID_ARGUMENT:
		*string = "HSA_STATUS_ERROR_INVALID_ARGUMENT";
		break;
	case HSA_STATUS_ERROR_EXCEPTION:
		*string =
		    "HSA_STATUS_ERROR_EXCEPTION: the kernel dispatch failed (stand-in runtime)";
		break;
	case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
		*string =
		    "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: the packet is not one the stand-in "
		    "runs";
		break;
	default:
		*string = "HSA_STATUS_ERROR (stand-in runtime)";
		break;
	}
	return HSA_STATUS_SUCCESS;
}

static int initialized(void)
{
	int n;
	pthread_mutex_lock(&init_lock);
	n = init_count;
	pthread_mutex_unlock(&init_lock);
	return n > 0;
}

hsa_status_t si_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data)
{
	hsa_agent_t agent = {AGENT_HANDLE};
	hsa_status_t st;
	if (!initialized())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	st = cb(agent, data);
	return st == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : st;
}

int standin_agent_valid(hsa_agent_t agent)
{
	return agent.handle == AGENT_HANDLE;
}

hsa_status_t si_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
	if (agent.handle != AGENT_HANDLE)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	switch ((int)attribute) {
	case HSA_AGENT_INFO_NAME:
		memset(value, 0, 64);
		snprintf(value, 64, "%s", agent_gfx());
		return HSA_STATUS_SUCCESS;
	case HSA_AGENT_INFO_DEVICE:
		*(hsa_device_type_t *)value = HSA_DEVICE_TYPE_GPU;
		return HSA_STATUS_SUCCESS;
	case HSA_AMD_AGENT_INFO_ASIC_REVISION: {
		const char *rev = getenv("STANDIN_ASIC_REV");
		if (rev && !strcmp(rev, "none"))
			return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* an old runtime */
		*(uint32_t *)value = rev && *rev ? (uint32_t)strtoul(rev, NULL, 0) : 0;
		return HSA_STATUS_SUCCESS;
	}
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}

hsa_status_t si_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void *),
                                   void *data)
{
	hsa_isa_t isa = {ISA_HANDLE};
	hsa_status_t st;
	if (agent.handle != AGENT_HANDLE)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	st = cb(isa, data);
	return st == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : st;
}

hsa_status_t si_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value)
{
	char name[128];
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s", agent_gfx());
	if (isa.handle != ISA_HANDLE)
		return HSA_STATUS_ERROR_INVALID_ISA;
	switch (attribute) {
	case HSA_ISA_INFO_NAME_LENGTH: /* ROCr counts the terminating NUL */
		*(uint32_t *)value = (uint32_t)strlen(name) + 1;
		return HSA_STATUS_SUCCESS;
	case HSA_ISA_INFO_NAME:
		memcpy(value, name, strlen(name) + 1);
		return HSA_STATUS_SUCCESS;
	default:
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
}

hsa_status_t si_reader_create_from_memory(const void *code_object, size_t size,
                                          hsa_code_object_reader_t *reader)
{
	struct reader *r;
	if (!code_object || !size || !reader)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	r = calloc(1, sizeof(*r));
	if (!r)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	r->magic = READER_MAGIC;
	r->bytes = code_object;
	r->size = size;
	reader->handle = (uint64_t)(uintptr_t)r;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *reader)
{
	struct stat st;
	struct reader *r;
	char *buf;
	size_t got = 0;

	if (!reader || fstat(file, &st) < 0 || st.st_size <= 0)
		return HSA_STATUS_ERROR_INVALID_FILE;
	buf = malloc((size_t)st.st_size);
	r = calloc(1, sizeof(*r));
	if (!buf || !r) {
		free(buf);
		free(r);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	/* Like ROCr: the whole file from offset 0. */
	if (lseek(file, 0, SEEK_SET) < 0)
		goto fail;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(file, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		got += (size_t)n;
	}
	r->magic = READER_MAGIC;
	r->bytes = r->owned = buf;
	r->size = got;
	reader->handle = (uint64_t)(uintptr_t)r;
	return HSA_STATUS_SUCCESS;
fail:
	free(buf);
	free(r);
	return HSA_STATUS_ERROR_INVALID_FILE;
}

static struct reader *reader_of(hsa_code_object_reader_t h)
{
	struct reader *r = (struct reader *)(uintptr_t)h.handle;
	return r && r->magic == READER_MAGIC ? r : NULL;
}

hsa_status_t si_reader_destroy(hsa_code_object_reader_t h)
{
	struct reader *r = reader_of(h);
	if (!r)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
	r->magic = 0;
	free(r->owned);
	free(r);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_executable_create_alt(hsa_profile_t profile,
                                      hsa_default_float_rounding_mode_t rounding,
                                      const char *options, hsa_executable_t *executable)
{
	struct executable *e = calloc(1, sizeof(*e));
	if (!e)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	e->magic = EXEC_MAGIC;
	executable->handle = (uint64_t)(uintptr_t)e;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
                                  const char *options, hsa_executable_t *executable)
{
	return si_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, options,
	                                executable);
}

static struct executable *exec_of(hsa_executable_t h)
{
	struct executable *e = (struct executable *)(uintptr_t)h.handle;
	return e && e->magic == EXEC_MAGIC ? e : NULL;
}

hsa_status_t si_executable_destroy(hsa_executable_t h)
{
	struct executable *e = exec_of(h);
	if (!e)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	e->magic = 0;
	standin_drop_loaded(e);
	free(e);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_executable_freeze(hsa_executable_t h, const char *options)
{
	struct executable *e = exec_of(h);
	if (!e)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	if (e->frozen)
		return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	e->frozen = 1;
	return HSA_STATUS_SUCCESS;
}

/* Writes the bytes the loader was given, so tests can judge them with LLVM's tools. */
static void record(const void *bytes, size_t size)
{
	const char *dir = getenv("STANDIN_RECORD_DIR");
	unsigned n = atomic_fetch_add(&load_counter, 1) + 1;
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/load-%u.co", dir, n);
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "standin: cannot record '%s': %s\n", path, strerror(errno));
		return;
	}
	if (fwrite(bytes, 1, size, f) != size)
		fprintf(stderr, "standin: short write to '%s'\n", path);
	fclose(f);
}

/* ROCr's checks, reduced: an AMDGPU ELF64 for this agent's processor. */
static hsa_status_t load_bytes(struct executable *e, hsa_agent_t agent, const void *bytes,
                               size_t size)
{
	Elf64_Ehdr eh;
	const struct gfx_info *g;

	if (!e)
		return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
	if (agent.handle != AGENT_HANDLE)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (e->frozen)
		return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
	if (size < sizeof(eh))
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	memcpy(&eh, bytes, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != 224 /* EM_AMDGPU */)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	g = gfx_by_mach((uint8_t)(eh.e_flags & 0xff));
	if (!g ||
	    (strcmp(g->name, agent_gfx()) &&
	     !(g->is_generic && gfx_by_name(agent_gfx()) && gfx_by_name(agent_gfx())->generic &&
	       !strcmp(gfx_by_name(agent_gfx())->generic, g->name))))
		return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
	record(bytes, size);
	standin_keep_loaded(e, bytes, size);
	e->loads++;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                  hsa_code_object_reader_t reader,
                                                  const char *options,
                                                  hsa_loaded_code_object_t *loaded)
{
	struct reader *r = reader_of(reader);
	hsa_status_t st;
	if (!r)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
	st = load_bytes(exec_of(executable), agent, r->bytes, r->size);
	if (st == HSA_STATUS_SUCCESS && loaded)
		loaded->handle = (uint64_t)(uintptr_t)r->bytes;
	return st;
}

/* The deprecated handle is the serialized object's address; its size is the ELF's extent. */
static size_t elf_extent(const unsigned char *p)
{
	Elf64_Ehdr eh;
	size_t end;
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	end = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	for (unsigned i = 0; eh.e_shentsize == sizeof(Elf64_Shdr) && i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		memcpy(&sh, p + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > end)
			end = sh.sh_offset + sh.sh_size;
	}
	return end;
}

hsa_status_t si_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                            hsa_code_object_t code_object, const char *options)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)code_object.handle;
	if (!p)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	return load_bytes(exec_of(executable), agent, p, elf_extent(p));
}

hsa_status_t si_code_object_deserialize(void *serialized, size_t size, const char *options,
                                        hsa_code_object_t *code_object)
{
	void *copy;
	if (!serialized || !size || !code_object)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	copy = malloc(size);
	if (!copy)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	memcpy(copy, serialized, size);
	code_object->handle = (uint64_t)(uintptr_t)copy;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t si_code_object_destroy(hsa_code_object_t code_object)
{
	free((void *)(uintptr_t)code_object.handle);
	return HSA_STATUS_SUCCESS;
}
