/* What `mirage rewrite` and `mirage inspect` share: the tree's rewriter, and IN from a file or "-".
 */
#include "rewriter_input.h"

#include "msg.h"

#include "bundle.h"
#include "elf_isa.h"
#include "hotswap_tree.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Finds the tree and loads its rewriter, printing why not. */
int load_rewriter(const struct cmd_ctx *ctx, struct rewriter_dl *rw)
{
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	struct strbuf msg = STRBUF_INIT;
	int ret = 0;

	if (hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &tree) < 0) {
		struct strbuf fix = STRBUF_INIT;
		hotswap_format_problem(&tree, &msg, &fix);
		ret = error("the rewriter comes from a HotSwap tree:\n%s", msg.buf);
		hint("%s", fix.buf);
		strbuf_release(&fix);
	} else if (rewriter_dl_open_tree(&tree, rw, &msg) < 0) {
		ret = error("%s", msg.buf);
		hint("mirage rewrite and inspect need the native flavour's " HOTSWAP_REWRITE_LIB);
	}
	strbuf_release(&msg);
	hotswap_tree_release(&tree);
	return ret;
}

/* "-" is standard input (IN) or standard output (-o), as for `mirage profile import -`. */
bool is_std_stream(const char *path)
{
	return !strcmp(path, "-");
}

/* How messages name IN or OUT: "<stdin>"/"<stdout>" for "-". */
const char *shown_path(const char *path, const char *stream)
{
	return is_std_stream(path) ? stream : path;
}

int read_input(const char *path, struct strbuf *bytes)
{
	if (is_std_stream(path)) {
		if (strbuf_read_fd(bytes, STDIN_FILENO) < 0)
			return error_errno("cannot read standard input");
		return 0;
	}
	if (strbuf_read_file(bytes, path) < 0)
		return error_errno("cannot read '%s'", path);
	return 0;
}

bool is_host_elf(const void *bytes, size_t size)
{
	/* Any class and byte order; only an AMDGPU ELF64 header (codeobj's look) is not a host's.
	 */
	return size >= 20 && !memcmp(bytes, ELFMAG, SELFMAG) && !cob_elf_is_amdgpu(bytes, size);
}

const char *fat_binary_kind(const void *bytes, size_t size)
{
	const uint8_t *sec;
	size_t sec_size;
	char *err = NULL;
	int found;

	if (cob_is_bundle(bytes, size))
		return "an offload bundle";
	if (!is_host_elf(bytes, size))
		return NULL;
	found = cob_find_hip_fatbin(bytes, size, &sec, &sec_size, &err);
	free(err);
	return found == 1 ? "a HIP program with a .hip_fatbin section" : NULL;
}
