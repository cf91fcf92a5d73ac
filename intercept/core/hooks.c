/*
 * The replacement CoreApiTable entries: remember reader bytes, decide per
 * load, and hand the runtime either the original or the rewritten object.
 */
#include "hooks.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hotswap/rewrite.h>

#include "elf_isa.h"
#include "gfx_route.h"
#include "hotswap_contract.h"
#include "log.h"
#include "read_whole.h"
#include "readers.h"
#include "rewrite_load.h"

struct hsa_core_table hsi_orig;
struct hsi_config hsi_cfg;

bool hsi_maybe_gfx125x(const void *p, size_t size)
{
	const struct gfx_info *g = cob_elf_processor(p, size);

	return g && !strcmp(g->family, "gfx12.5");
}

static char *memory_uri(const void *p, size_t size)
{
	char buf[96];
	snprintf(buf, sizeof(buf), "memory://%d#offset=0x%llx&size=%zu", (int)getpid(),
	         (unsigned long long)(uintptr_t)p, size);
	return strdup(buf);
}

static char *file_uri(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;
	size_t len;
	char *uri;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		snprintf(path, sizeof(path), "fd %d", fd);
	else
		path[n] = '\0';
	len = strlen(path) + sizeof("file://");
	uri = malloc(len);
	if (uri)
		snprintf(uri, len, "file://%s", path);
	return uri;
}

hsa_status_t hsi_reader_create_from_memory(const void *code_object, size_t size,
                                           hsa_code_object_reader_t *reader)
{
	hsa_status_t st =
	    hsi_orig.hsa_code_object_reader_create_from_memory_fn(code_object, size, reader);
	void *copy;

	if (st != HSA_STATUS_SUCCESS || hsi_cfg.disable || !hsi_maybe_gfx125x(code_object, size))
		return st;
	/* The caller may free its buffer as soon as this returns: keep our own copy. */
	copy = malloc(size);
	if (!copy) {
		hsi_warn("out of memory copying a %zu-byte code object; it will load untouched",
		         size);
		return st;
	}
	memcpy(copy, code_object, size);
	hsi_readers_add(reader->handle, copy, size, memory_uri(code_object, size));
	return st;
}

/* The ELF header alone, so files we would never rewrite are not read twice (by us, then ROCr). */
static bool fd_maybe_gfx125x(int fd)
{
	Elf64_Ehdr eh;
	ssize_t n;

	do
		n = pread(fd, &eh, sizeof(eh), 0);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(eh) && hsi_maybe_gfx125x(&eh, sizeof(eh));
}

hsa_status_t hsi_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *reader)
{
	size_t size = 0;
	void *bytes;
	hsa_status_t st;

	if (hsi_cfg.disable || !reader || !fd_maybe_gfx125x(file))
		return hsi_orig.hsa_code_object_reader_create_from_file_fn(file, reader);
	bytes = read_whole_fd(file, &size); /* pread: ROCr's file position stays */
	if (!bytes || !hsi_maybe_gfx125x(bytes, size)) {
		free(bytes);
		return hsi_orig.hsa_code_object_reader_create_from_file_fn(file, reader);
	}
	/* A memory reader over our copy: the copy lives until the reader is destroyed. */
	st = hsi_orig.hsa_code_object_reader_create_from_memory_fn(bytes, size, reader);
	if (st != HSA_STATUS_SUCCESS) {
		free(bytes);
		return st;
	}
	hsi_readers_add(reader->handle, bytes, size, file_uri(file));
	return st;
}

hsa_status_t hsi_reader_destroy(hsa_code_object_reader_t reader)
{
	hsa_status_t st = hsi_orig.hsa_code_object_reader_destroy_fn(reader);
	if (st == HSA_STATUS_SUCCESS)
		hsi_readers_remove(reader.handle);
	return st;
}

enum verdict {
	LOAD_ORIGINAL,
	LOAD_REWRITTEN,
	REFUSE,
};

/* Decides for one load and, when rewriting, fills *out with process-lifetime bytes. */
static enum verdict decide_load(hsa_agent_t agent, const void *bytes, size_t size, const char *uri,
                                struct hsi_blob *out)
{
	struct hsi_agent_facts af;
	struct hsi_object_facts obj;
	struct hsi_decision d;
	enum hsi_rewrite_result tr;
	const char *then;
	char err[600], why[256];

	if (hsi_agent_facts(agent, &af) < 0) {
		hsi_info("%s: cannot query agent 0x%llx; loading untouched", uri,
		         (unsigned long long)agent.handle);
		return LOAD_ORIGINAL;
	}
	if (cob_code_object_isa(bytes, size, obj.isa, sizeof(obj.isa), obj.proc, sizeof(obj.proc),
	                        why, sizeof(why)) < 0) {
		/* Not ours to judge: the runtime reports a bad object better than we can. */
		hsi_info("%s: cannot read its ISA (%s); loading untouched", uri, why);
		return LOAD_ORIGINAL;
	}
	hsi_decide(&hsi_cfg, &af, &obj, &d);
	if (d.refuse) {
		char routes[160];
		gfx_routes_text(obj.proc, routes, sizeof(routes));
		hsi_warn(
		    "%s: no route runs %s code on %s (it runs on %s); refusing the load rather "
		    "than leaving it to the runtime's incompatible-ISA error",
		    uri, obj.proc, af.gfx, routes);
		return REFUSE;
	}
	if (!d.rewrite) {
		hsi_info("%s (%s) on %s: loading untouched: %s", uri, obj.proc, af.gfx, d.why);
		return LOAD_ORIGINAL;
	}
	hsi_info("%s (%s) on %s: %s %s -> %s (%s, flags 0x%llx%s)", uri, obj.proc, af.gfx,
	         d.translate ? "translating" : "rewriting", d.src_name, d.tgt_name, d.why,
	         (unsigned long long)d.flags, d.required ? ", required" : "");
	tr = hsi_rewrite_load(bytes, size, &obj, &d, uri, NULL, out, err, sizeof(err));
	if (tr == HSI_REWRITTEN)
		return LOAD_REWRITTEN;
	then = d.translate  ? "refusing the load (gfx1250 code cannot run on this agent)"
	       : d.required ? "refusing the load (" HOTSWAP_ENV_STRICT " is set)"
	                    : "loading the original";
	/* Once per object: the load that ran the rewrite warns, later loads of those bytes only
	 * repeat it under HSA_HOTSWAP_VERBOSE (480 loads of one object are not 480 warnings). */
	if (tr == HSI_REWRITE_FAILED)
		hsi_warn("%s of %s failed: %s; %s", d.translate ? "translation" : "rewrite", uri,
		         err, then);
	else
		hsi_info("%s of %s failed: %s (remembered, not retried); %s",
		         d.translate ? "translation" : "rewrite", uri, err, then);
	return d.required ? REFUSE : LOAD_ORIGINAL;
}

hsa_status_t hsi_load_agent_code_object(hsa_executable_t exec, hsa_agent_t agent,
                                        hsa_code_object_reader_t reader, const char *options,
                                        hsa_loaded_code_object_t *loaded)
{
	struct hsi_reader *r = hsi_readers_get(reader.handle);
	struct hsi_blob out;
	hsa_code_object_reader_t tmp;
	hsa_status_t st;
	enum verdict v;

	if (!r)
		return hsi_orig.hsa_executable_load_agent_code_object_fn(exec, agent, reader,
		                                                         options, loaded);
	v = decide_load(agent, r->bytes, r->size, r->uri, &out);
	hsi_readers_put(r);
	if (v == REFUSE)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	if (v == LOAD_ORIGINAL)
		return hsi_orig.hsa_executable_load_agent_code_object_fn(exec, agent, reader,
		                                                         options, loaded);
	st = hsi_orig.hsa_code_object_reader_create_from_memory_fn(out.data, out.size, &tmp);
	if (st != HSA_STATUS_SUCCESS) {
		hsi_warn("cannot create a reader for the rewritten object (status 0x%x); "
		         "loading the original",
		         (unsigned)st);
		return hsi_orig.hsa_executable_load_agent_code_object_fn(exec, agent, reader,
		                                                         options, loaded);
	}
	st = hsi_orig.hsa_executable_load_agent_code_object_fn(exec, agent, tmp, options, loaded);
	/* The loaded object no longer needs its reader; the bytes stay (cache-owned). */
	hsi_orig.hsa_code_object_reader_destroy_fn(tmp);
	return st;
}

hsa_status_t hsi_load_code_object(hsa_executable_t exec, hsa_agent_t agent,
                                  hsa_code_object_t code_object, const char *options)
{
	/* The deprecated handle is the address of the serialized object (ROCr's convention). */
	const void *bytes = (const void *)(uintptr_t)code_object.handle;
	struct hsi_blob out;
	size_t size;
	char *uri;
	enum verdict v;

	if (hsi_cfg.disable || !bytes)
		return hsi_orig.hsa_executable_load_code_object_fn(exec, agent, code_object,
		                                                   options);
	size = cob_elf_extent(bytes);
	if (!size || !hsi_maybe_gfx125x(bytes, size))
		return hsi_orig.hsa_executable_load_code_object_fn(exec, agent, code_object,
		                                                   options);
	uri = memory_uri(bytes, size);
	v = decide_load(agent, bytes, size, uri ? uri : "a code object", &out);
	free(uri);
	if (v == REFUSE)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	if (v == LOAD_REWRITTEN)
		code_object.handle = (uint64_t)(uintptr_t)out.data;
	return hsi_orig.hsa_executable_load_code_object_fn(exec, agent, code_object, options);
}
