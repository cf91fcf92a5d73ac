/*
 * An HSA client that runs one kernel the way a HIP program does, linked against
 * libhsa-runtime64 like any other:
 *
 *   hsa_dispatch LAUNCH.json [--code-object FILE]
 *
 * The launch file (the `mirage emulate` format, translate/launch/launch_file.h) says which
 * kernel of which code object (--code-object overrides it), the grid, the buffers and their
 * inputs, and the explicit arguments.  The client allocates every buffer with
 * hsa_memory_allocate in the agent's global region and fills it, loads the code object from
 * memory into an executable, looks up "<kernel>.kd", lays out the kernarg segment from the
 * object's metadata in the kernarg region (explicit arguments in .args order, the
 * code-object-v5 hidden block filled as HIP fills it: translate/host/kernarg.h), writes one
 * AQL kernel dispatch packet to a queue, rings the doorbell, waits on the completion signal
 * and writes each buffer with an "output" to its file.  Exit 0, or 1 with a message naming
 * the step that failed (2 for usage or a bad launch file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>

#include "client_agent.h"

#include "atomic_file.h"
#include "kernarg.h"
#include "launch_file.h"
#include "mirage/code_object.h"

static hsa_agent_t agent;
static hsa_region_t global_region, kernarg_region;
static volatile int queue_error;

static hsa_status_t pick_regions(hsa_region_t r, void *data)
{
	hsa_region_segment_t seg;
	uint32_t flags;
	(void)data;
	if (hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg) != HSA_STATUS_SUCCESS ||
	    seg != HSA_REGION_SEGMENT_GLOBAL ||
	    hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags) != HSA_STATUS_SUCCESS)
		return HSA_STATUS_SUCCESS;
	if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)
		kernarg_region = r;
	else if (!global_region.handle)
		global_region = r;
	return HSA_STATUS_SUCCESS;
}

static int fail(const char *what, hsa_status_t st)
{
	const char *msg = NULL;
	if (hsa_status_string(st, &msg) != HSA_STATUS_SUCCESS || !msg)
		msg = "unknown status";
	fprintf(stderr, "hsa_dispatch: %s failed: %s (0x%x)\n", what, msg, (unsigned)st);
	return 1;
}

static void on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	queue_error = (int)st ? (int)st : 1;
}

/* Loads the code object (bytes) into a frozen executable and finds "<kernel>.kd". */
static int load_kernel(const void *bytes, size_t size, const char *kernel, hsa_executable_t *exec,
                       hsa_executable_symbol_t *sym)
{
	hsa_code_object_reader_t reader;
	hsa_status_t st;
	char kd_symbol[512];

	st = hsa_code_object_reader_create_from_memory(bytes, size, &reader);
	if (st != HSA_STATUS_SUCCESS)
		return fail("hsa_code_object_reader_create_from_memory", st);
	st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
	                               NULL, exec);
	if (st == HSA_STATUS_SUCCESS)
		st = hsa_executable_load_agent_code_object(*exec, agent, reader, NULL, NULL);
	hsa_code_object_reader_destroy(reader);
	if (st != HSA_STATUS_SUCCESS)
		return fail("loading the code object", st);
	st = hsa_executable_freeze(*exec, NULL);
	if (st != HSA_STATUS_SUCCESS)
		return fail("hsa_executable_freeze", st);
	snprintf(kd_symbol, sizeof(kd_symbol), "%s.kd", kernel);
	st = hsa_executable_get_symbol_by_name(*exec, kd_symbol, &agent, sym);
	if (st != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "hsa_dispatch: no kernel symbol '%s' in the executable\n",
		        kd_symbol);
		return fail("hsa_executable_get_symbol_by_name", st);
	}
	return 0;
}

/* Writes one kernel dispatch packet, rings the doorbell and waits for completion. */
static int dispatch(const struct launch_file *lf, uint64_t kernel_object, void *kernarg,
                    uint32_t group_bytes, uint32_t private_bytes)
{
	hsa_queue_t *queue;
	hsa_signal_t done;
	hsa_kernel_dispatch_packet_t *p;
	hsa_status_t st;
	uint64_t index;
	uint16_t header;
	int rc = 0;

	st = hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_SINGLE, on_queue_error, NULL, UINT32_MAX,
	                      UINT32_MAX, &queue);
	if (st != HSA_STATUS_SUCCESS)
		return fail("hsa_queue_create", st);
	st = hsa_signal_create(1, 0, NULL, &done);
	if (st != HSA_STATUS_SUCCESS) {
		hsa_queue_destroy(queue);
		return fail("hsa_signal_create", st);
	}
	index = hsa_queue_add_write_index_screlease(queue, 1);
	p = (hsa_kernel_dispatch_packet_t *)queue->base_address + (index % queue->size);
	memset((uint8_t *)p + 2, 0, sizeof(*p) - 2);
	p->setup = (uint16_t)((lf->grid[2] > 1   ? 3
	                       : lf->grid[1] > 1 ? 2
	                                         : 1)
	                      << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
	p->workgroup_size_x = (uint16_t)lf->workgroup[0];
	p->workgroup_size_y = (uint16_t)lf->workgroup[1];
	p->workgroup_size_z = (uint16_t)lf->workgroup[2];
	p->grid_size_x = lf->grid[0];
	p->grid_size_y = lf->grid[1];
	p->grid_size_z = lf->grid[2];
	p->private_segment_size = private_bytes;
	p->group_segment_size = group_bytes + lf->dynamic_lds;
	p->kernel_object = kernel_object;
	p->kernarg_address = kernarg;
	p->completion_signal = done;
	header = (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
	                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
	                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
	__atomic_store_n(&p->header, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(queue->doorbell_signal, (hsa_signal_value_t)index);
	if (queue_error) {
		fprintf(stderr, "hsa_dispatch: the queue reported an error: the dispatch failed\n");
		rc = fail("the kernel dispatch", (hsa_status_t)queue_error);
	} else if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
	                                     HSA_WAIT_STATE_BLOCKED) != 0) {
		fprintf(stderr, "hsa_dispatch: the completion signal was not decremented\n");
		rc = 1;
	}
	hsa_signal_destroy(done);
	hsa_queue_destroy(queue);
	return rc;
}

static int run(const struct launch_file *lf, const void *code, size_t code_size)
{
	struct code_object *co = NULL;
	const struct co_kernel *k;
	hsa_executable_t exec = {0};
	hsa_executable_symbol_t sym;
	uint64_t kernel_object = 0;
	uint32_t kernarg_size = 0, group = 0, priv = 0;
	uint8_t **bufs = calloc(lf->nbuffers + 1, sizeof(*bufs));
	void *kernarg = NULL;
	char *err = NULL, msg[512];
	hsa_status_t st;
	int rc = 1;

	if (!bufs)
		return 1;
	/* The kernel's metadata (.args, hidden block), as HIP reads it from the code object. */
	if (co_load_memory(code, code_size, lf->code_object, &co, &err)) {
		fprintf(stderr, "hsa_dispatch: %s\n", err);
		goto out;
	}
	k = co_find_kernel(co, lf->kernel);
	if (!k) {
		fprintf(stderr, "hsa_dispatch: no kernel '%s' in the metadata of '%s'\n",
		        lf->kernel, lf->code_object);
		goto out;
	}
	if (load_kernel(code, code_size, lf->kernel, &exec, &sym))
		goto out;
	if ((st = hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
	                                         &kernel_object)) ||
	    (st = hsa_executable_symbol_get_info(
	         sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size)) ||
	    (st = hsa_executable_symbol_get_info(
	         sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group)) ||
	    (st = hsa_executable_symbol_get_info(
	         sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv))) {
		rc = fail("hsa_executable_symbol_get_info", st);
		goto out;
	}
	if (kernarg_size != k->kernarg_size) {
		fprintf(stderr,
		        "hsa_dispatch: the descriptor's kernarg size %u is not the metadata's %u\n",
		        kernarg_size, k->kernarg_size);
		goto out;
	}
	for (size_t i = 0; i < lf->nbuffers; i++) {
		st = hsa_memory_allocate(global_region, lf->buffers[i].size, (void **)&bufs[i]);
		if (st != HSA_STATUS_SUCCESS) {
			rc = fail("hsa_memory_allocate", st);
			goto out;
		}
		if (launch_buffer_fill(lf, &lf->buffers[i], bufs[i], &err)) {
			fprintf(stderr, "hsa_dispatch: %s\n", err);
			rc = 2;
			goto out;
		}
	}
	st = hsa_memory_allocate(kernarg_region, kernarg_size ? kernarg_size : 1, &kernarg);
	if (st != HSA_STATUS_SUCCESS) {
		rc = fail("hsa_memory_allocate (kernarg)", st);
		goto out;
	}
	memset(kernarg, 0, kernarg_size);
	if (kernarg_build(k, lf, bufs, kernarg, msg, sizeof(msg))) {
		fprintf(stderr, "hsa_dispatch: %s: %s\n", lf->path, msg);
		rc = 2;
		goto out;
	}
	if (dispatch(lf, kernel_object, kernarg, group, priv))
		goto out;
	for (size_t i = 0; i < lf->nbuffers; i++)
		if (lf->buffers[i].output_path &&
		    atomic_write_file(lf->buffers[i].output_path, bufs[i], lf->buffers[i].size,
		                      0666, ATOMIC_REPLACE)) {
			fprintf(stderr, "hsa_dispatch: cannot write '%s': %s\n",
			        lf->buffers[i].output_path, strerror(errno));
			goto out;
		}
	rc = 0;
out:
	for (size_t i = 0; i < lf->nbuffers; i++)
		hsa_memory_free(bufs[i]);
	hsa_memory_free(kernarg);
	if (exec.handle)
		hsa_executable_destroy(exec);
	free(bufs);
	free(err);
	co_free(co);
	return rc;
}

int main(int argc, char **argv)
{
	struct launch_file *lf = NULL;
	const char *code_path = NULL;
	char *err = NULL;
	void *code;
	size_t code_size;
	int rc;

	if (argc == 4 && !strcmp(argv[2], "--code-object"))
		code_path = argv[3];
	else if (argc != 2) {
		fprintf(stderr, "usage: hsa_dispatch LAUNCH.json [--code-object FILE]\n");
		return 2;
	}
	if (launch_file_load(argv[1], &lf, &err)) {
		fprintf(stderr, "hsa_dispatch: %s\n", err);
		free(err);
		return 2;
	}
	if (code_path) {
		free(lf->code_object);
		lf->code_object = strdup(code_path);
	}
	code = launch_read_regular(lf->code_object, (size_t)1 << 30, &code_size);
	if (!code) {
		fprintf(stderr, "hsa_dispatch: cannot read '%s': %s\n", lf->code_object,
		        strerror(errno));
		launch_file_free(lf);
		return 1;
	}
	if (hsa_init() != HSA_STATUS_SUCCESS ||
	    hsa_iterate_agents(client_pick_gpu, &agent) != HSA_STATUS_SUCCESS || !agent.handle ||
	    hsa_agent_iterate_regions(agent, pick_regions, NULL) != HSA_STATUS_SUCCESS ||
	    !global_region.handle || !kernarg_region.handle) {
		fprintf(stderr, "hsa_dispatch: no GPU agent with a global and a kernarg region\n");
		rc = 1;
	} else {
		rc = run(lf, code, code_size);
	}
	hsa_shut_down();
	free(code);
	launch_file_free(lf);
	return rc;
}
