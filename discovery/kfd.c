/* Reads the KFD topology in sysfs into a list of GPUs and applies *_VISIBLE_DEVICES. */
#include "kfd.h"

#include "hotswap_contract.h"
#include "strbuf.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct node_props {
	bool have_version;
	uint64_t gfx_target_version, capability, device_id, location_id, drm_render_minor,
	    simd_count, unique_id;
};

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* Parses one properties file; returns -1 after recording a warning that names file and line. */
static int parse_properties(const char *path, struct node_props *p, struct strvec *warnings)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"gfx_target_version", offsetof(struct node_props, gfx_target_version)},
	    {"capability", offsetof(struct node_props, capability)},
	    {"device_id", offsetof(struct node_props, device_id)},
	    {"location_id", offsetof(struct node_props, location_id)},
	    {"drm_render_minor", offsetof(struct node_props, drm_render_minor)},
	    {"simd_count", offsetof(struct node_props, simd_count)},
	    {"unique_id", offsetof(struct node_props, unique_id)},
	};
	struct strbuf text = STRBUF_INIT;
	int ret = 0;

	if (strbuf_read_file(&text, path)) {
		strvec_pushf(warnings, "cannot read '%s': %s; node skipped", path, strerror(errno));
		strbuf_release(&text);
		return -1;
	}
	/* Split by hand rather than strvec_split so empty lines keep their line numbers. */
	size_t lineno = 0;
	for (char *line = text.buf, *next; line && ret == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		struct strvec words = STRVEC_INIT;
		strvec_split(&words, line, " \t\r");
		uint64_t value;
		if (!words.nr) {
			/* blank lines are harmless */
		} else if (words.nr != 2 || parse_u64(words.v[1], &value)) {
			strvec_pushf(
			    warnings,
			    "%s:%zu: malformed line '%.60s' (expected 'key <decimal>'); node "
			    "skipped",
			    path, lineno, line);
			ret = -1;
		} else {
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				if (!strcmp(words.v[0], keys[k].key))
					*(uint64_t *)((char *)p + keys[k].off) = value;
			if (!strcmp(words.v[0], "gfx_target_version"))
				p->have_version = true;
		}
		strvec_clear(&words);
	}
	if (!ret && !p->have_version) {
		strvec_pushf(warnings, "%s: no gfx_target_version line; node skipped", path);
		ret = -1;
	} else if (!ret && p->gfx_target_version > UINT32_MAX) {
		strvec_pushf(warnings,
		             "%s: gfx_target_version %" PRIu64 " is out of range; node skipped",
		             path, p->gfx_target_version);
		ret = -1;
	}
	strbuf_release(&text);
	return ret;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int cmp_node(const void *a, const void *b)
{
	unsigned long x = strtoul(*(const char *const *)a, NULL, 10);
	unsigned long y = strtoul(*(const char *const *)b, NULL, 10);
	return x < y ? -1 : x > y;
}

static void add_gpu(struct kfd_gpus *out, unsigned node, const struct node_props *p)
{
	struct kfd_gpu *g;
	out->gpu = xrealloc(out->gpu, (out->nr + 1) * sizeof(*out->gpu));
	g = &out->gpu[out->nr];
	memset(g, 0, sizeof(*g));
	g->index = (unsigned)out->nr++;
	g->node = node;
	g->gfx_target_version = (uint32_t)p->gfx_target_version;
	if (!gfx_name_from_kfd_version(g->gfx_target_version, g->gfx, sizeof(g->gfx)))
		strcpy(g->gfx, "gfx?");
	g->info = gfx_by_kfd_version(g->gfx_target_version);
	g->asic_revision = (unsigned)((p->capability >> 22) & 0xf);
	g->device_id = (uint32_t)p->device_id;
	g->location_id = (uint32_t)p->location_id;
	g->drm_render_minor = (uint32_t)p->drm_render_minor;
	g->simd_count = (uint32_t)p->simd_count;
	g->unique_id = p->unique_id;
	g->visible_rank = -1;
}

/* Resolves one *_VISIBLE_DEVICES entry against the current candidates: an index or GPU-<hex uuid>.
 */
static long resolve_entry(const struct kfd_gpus *gpus, const size_t *cand, size_t ncand,
                          const char *entry)
{
	uint64_t v;
	if (!parse_u64(entry, &v))
		return v < ncand ? (long)cand[v] : -1;
	if (!strncasecmp(entry, "GPU-", 4) && entry[4]) {
		char *end;
		errno = 0;
		unsigned long long id = strtoull(entry + 4, &end, 16);
		if (errno || *end)
			return -1;
		for (size_t i = 0; i < ncand; i++)
			if (gpus->gpu[cand[i]].unique_id && gpus->gpu[cand[i]].unique_id == id)
				return (long)cand[i];
	}
	return -1;
}

/*
 * ROCr stops at the first entry it cannot use and keeps what came before; we
 * do the same, but say so.  HIP_VISIBLE_DEVICES then indexes what ROCr left.
 */
static void apply_visible(struct kfd_gpus *gpus, const char *var)
{
	const char *value = getenv(var);
	if (!value || !*value)
		return;
	struct strvec entries = STRVEC_INIT;
	size_t *next = xcalloc(gpus->nr + 1, sizeof(*next));
	size_t n = 0;
	strvec_split(&entries, value, ",");
	for (size_t i = 0; i < entries.nr; i++) {
		const char *entry = entries.v[i];
		struct strbuf trimmed = STRBUF_INIT;
		strbuf_addstr(&trimmed, entry + strspn(entry, " \t"));
		strbuf_rtrim(&trimmed);
		long idx = resolve_entry(gpus, gpus->visible, gpus->nvisible, trimmed.buf);
		bool dup = false;
		for (size_t k = 0; k < n && idx >= 0; k++)
			dup |= next[k] == (size_t)idx;
		if (idx < 0) {
			strvec_pushf(
			    &gpus->warnings,
			    "%s=%s: entry '%s' matches no GPU; it and the entries after it "
			    "are ignored",
			    var, value, trimmed.buf);
			i = entries.nr;
		} else if (!dup) {
			next[n++] = (size_t)idx;
		}
		strbuf_release(&trimmed);
	}
	free(gpus->visible);
	gpus->visible = next;
	gpus->nvisible = n;
	gpus->visible_var =
	    gpus->visible_var ? "ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES" : var;
	strvec_clear(&entries);
}

static const char *sysfs_root_default(void)
{
	const char *root = getenv(MIRAGE_ENV_SYSFS_ROOT);
	return root && *root ? root : "/sys";
}

int kfd_scan(const char *sysfs_root, struct kfd_gpus *out)
{
	struct strvec names = STRVEC_INIT;
	struct stat st;

	kfd_gpus_release(out);
	out->nodes_dir = xstrfmt("%s/class/kfd/kfd/topology/nodes",
	                         sysfs_root ? sysfs_root : sysfs_root_default());
	out->kfd_present = !stat(out->nodes_dir, &st) && S_ISDIR(st.st_mode);

	DIR *d = out->kfd_present ? opendir(out->nodes_dir) : NULL;
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)))
			if (all_digits(de->d_name))
				strvec_push(&names, de->d_name);
		closedir(d);
	}
	qsort(names.v, names.nr, sizeof(*names.v), cmp_node);
	for (size_t i = 0; i < names.nr; i++) {
		struct node_props props = {0};
		char *path = xstrfmt("%s/%s/properties", out->nodes_dir, names.v[i]);
		/* gfx_target_version 0 is a CPU node. */
		if (!parse_properties(path, &props, &out->warnings) && props.gfx_target_version)
			add_gpu(out, (unsigned)strtoul(names.v[i], NULL, 10), &props);
		free(path);
	}
	strvec_clear(&names);

	out->visible = xcalloc(out->nr + 1, sizeof(*out->visible));
	for (size_t i = 0; i < out->nr; i++)
		out->visible[i] = i;
	out->nvisible = out->nr;
	apply_visible(out, "ROCR_VISIBLE_DEVICES");
	apply_visible(out, "HIP_VISIBLE_DEVICES");
	for (size_t i = 0; i < out->nvisible; i++)
		out->gpu[out->visible[i]].visible_rank = (int)i;
	return 0;
}

void kfd_gpus_release(struct kfd_gpus *gpus)
{
	free(gpus->nodes_dir);
	free(gpus->gpu);
	free(gpus->visible);
	strvec_clear(&gpus->warnings);
	*gpus = (struct kfd_gpus)KFD_GPUS_INIT;
}

const char *kfd_gpu_stepping(const struct kfd_gpu *gpu)
{
	switch (gfx_stepping(gpu->info, gpu->asic_revision)) {
	case GFX_STEPPING_A0:
		return "A0";
	case GFX_STEPPING_B0:
		return "B0";
	case GFX_STEPPING_NONE:
		break;
	}
	return NULL;
}
