/*
 * A minimal HSA client, linked against libhsa-runtime64 like any other:
 * creates a code object reader (from memory, or --file) for each argument and
 * loads it into an executable on the first agent.  --deprecated uses
 * hsa_code_object_deserialize + hsa_executable_load_code_object instead.
 * --threads T --repeat R: T threads each load every object R times.
 * --maps FILE: copy /proc/self/maps to FILE after the loads (what got mapped).
 * Exits 1 with a message on the first failed load.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hsa/hsa.h>

#include "client_agent.h"

struct object {
	const char *path;
	void *bytes;
	size_t size;
};

static struct object *objects;
static int nobjects;
static bool use_file, use_deprecated;
static int repeat = 1;
static const char *maps_out;
static hsa_agent_t agent;

static int fail(const char *what, const char *path, hsa_status_t st)
{
	const char *msg = NULL;
	if (hsa_status_string(st, &msg) != HSA_STATUS_SUCCESS || !msg)
		msg = "unknown status";
	fprintf(stderr, "hsa_client: %s '%s' failed: %s (0x%x)\n", what, path, msg, (unsigned)st);
	return -1;
}

static int slurp(struct object *o)
{
	struct stat st;
	int fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "hsa_client: cannot open '%s': %s\n", o->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	o->size = (size_t)st.st_size;
	o->bytes = malloc(o->size ? o->size : 1);
	if (!o->bytes || read(fd, o->bytes, o->size) != (ssize_t)o->size) {
		fprintf(stderr, "hsa_client: cannot read '%s'\n", o->path);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int load_deprecated(hsa_executable_t exec, const struct object *o)
{
	hsa_code_object_t co;
	hsa_status_t st = hsa_code_object_deserialize(o->bytes, o->size, NULL, &co);
	if (st != HSA_STATUS_SUCCESS)
		return fail("deserializing", o->path, st);
	st = hsa_executable_load_code_object(exec, agent, co, NULL);
	hsa_code_object_destroy(co);
	return st == HSA_STATUS_SUCCESS ? 0 : fail("loading", o->path, st);
}
#pragma GCC diagnostic pop

static int load_reader(hsa_executable_t exec, const struct object *o)
{
	hsa_code_object_reader_t reader;
	hsa_status_t st;
	int fd = -1;
	void *copy = NULL;

	if (use_file) {
		fd = open(o->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fail("opening", o->path, HSA_STATUS_ERROR_INVALID_FILE);
		st = hsa_code_object_reader_create_from_file(fd, &reader);
	} else {
		/* A private copy, scribbled over after the load: the runtime must not depend on it.
		 */
		copy = malloc(o->size);
		if (!copy)
			return fail("copying", o->path, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
		memcpy(copy, o->bytes, o->size);
		st = hsa_code_object_reader_create_from_memory(copy, o->size, &reader);
	}
	if (st != HSA_STATUS_SUCCESS) {
		free(copy);
		if (fd >= 0)
			close(fd);
		return fail("creating a reader for", o->path, st);
	}
	st = hsa_executable_load_agent_code_object(exec, agent, reader, NULL, NULL);
	hsa_code_object_reader_destroy(reader);
	if (copy)
		memset(copy, 0xa5, o->size);
	free(copy);
	if (fd >= 0)
		close(fd);
	return st == HSA_STATUS_SUCCESS ? 0 : fail("loading", o->path, st);
}

static int load_one(const struct object *o)
{
	hsa_executable_t exec;
	hsa_status_t st;
	int rc;

	st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
	                               NULL, &exec);
	if (st != HSA_STATUS_SUCCESS)
		return fail("creating an executable for", o->path, st);
	rc = use_deprecated ? load_deprecated(exec, o) : load_reader(exec, o);
	if (rc == 0) {
		st = hsa_executable_freeze(exec, NULL);
		if (st != HSA_STATUS_SUCCESS)
			rc = fail("freezing", o->path, st);
	}
	hsa_executable_destroy(exec);
	return rc;
}

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int r = 0; r < repeat; r++)
		for (int i = 0; i < nobjects; i++)
			if (load_one(&objects[(i + id) % nobjects]) < 0)
				return (void *)1;
	return NULL;
}

static void dump_maps(void)
{
	FILE *in = fopen("/proc/self/maps", "r"), *out = fopen(maps_out, "w");
	char buf[4096];
	size_t n;

	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static int usage(void)
{
	fprintf(
	    stderr,
	    "usage: hsa_client [--file] [--deprecated] [--threads T] [--repeat R] [--maps FILE] "
	    "object.co...\n");
	return 2;
}

int main(int argc, char **argv)
{
	int threads = 0, i, rc = 0;
	pthread_t *tids;
	hsa_status_t st;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--file"))
			use_file = true;
		else if (!strcmp(argv[i], "--deprecated"))
			use_deprecated = true;
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--maps") && i + 1 < argc)
			maps_out = argv[++i];
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else
			return usage();
	}
	if (i == argc || threads < 0 || repeat < 1)
		return usage();
	nobjects = argc - i;
	objects = calloc((size_t)nobjects, sizeof(*objects));
	if (!objects)
		return 1;
	for (int k = 0; k < nobjects; k++) {
		objects[k].path = argv[i + k];
		if (slurp(&objects[k]) < 0)
			return 1;
	}
	st = hsa_init();
	if (st != HSA_STATUS_SUCCESS) {
		fail("initialising", "HSA", st);
		return 1;
	}
	if (hsa_iterate_agents(client_pick_gpu, &agent) != HSA_STATUS_SUCCESS || !agent.handle) {
		fprintf(stderr, "hsa_client: no GPU agent\n");
		return 1;
	}
	if (threads == 0) {
		rc = worker((void *)0) ? 1 : 0;
	} else {
		tids = calloc((size_t)threads, sizeof(*tids));
		if (!tids)
			return 1;
		for (int t = 0; t < threads; t++)
			if (pthread_create(&tids[t], NULL, worker, (void *)(intptr_t)t))
				return 1;
		for (int t = 0; t < threads; t++) {
			void *res;
			pthread_join(tids[t], &res);
			if (res)
				rc = 1;
		}
		free(tids);
	}
	if (maps_out)
		dump_maps();
	hsa_shut_down();
	for (int k = 0; k < nobjects; k++)
		free(objects[k].bytes);
	free(objects);
	return rc;
}
