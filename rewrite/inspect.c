/* hs_inspect: a JSON description of a code object (kernels, descriptors, metadata, notes, pool). */
#include "b0a0_scan.h"
#include "decoder.h"
#include "object.h"
#include "stub_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gfx_table.h"
#include "hs_mc.h"

/* Upper bound on instructions decoded per region, so garbage never runs away. */
#define DISASM_MAX_INSNS 16384

/* A register as {"raw": v, <field>: value...} in its family's layout. */
static cJSON *decode_reg(uint32_t v, const struct kd_layout *l, enum kd_reg reg)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "raw", v);
	for (size_t i = 0; i < l->n[reg]; i++)
		cJSON_AddNumberToObject(o, l->field[reg][i].name,
		                        kd_field_get(v, &l->field[reg][i]));
	return o;
}

static void add_hex(cJSON *o, const char *key, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	cJSON_AddStringToObject(o, key, buf);
}

/* Symbols by address, so every instruction that starts a symbol gets its label. */
struct sym_entry {
	uint64_t value, size;
	const char *name;
	unsigned rank; /* lower is preferred: functions, then .symtab before .dynsym */
};
struct sym_index {
	struct sym_entry *v;
	size_t n;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static enum hs_status sym_index_build(const struct cob_elf *e, struct sym_index *ix)
{
	const size_t tabs[2] = {e->symtab, e->dynsym};
	size_t cap = cob_elf_sym_count(e, tabs[0]) + cob_elf_sym_count(e, tabs[1]);

	ix->n = 0;
	ix->v = calloc(cap ? cap : 1, sizeof(*ix->v));
	if (!ix->v)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (unsigned t = 0; t < 2; t++) {
		size_t n = cob_elf_sym_count(e, tabs[t]);
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			const char *name;
			unsigned type;
			cob_elf_sym(e, tabs[t], i, &s);
			type = GELF_ST_TYPE(s.st_info);
			name = cob_elf_sym_name(e, tabs[t], &s);
			if (s.st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE ||
			    !name || !*name)
				continue;
			ix->v[ix->n++] = (struct sym_entry){
			    .value = s.st_value,
			    .size = s.st_size,
			    .name = name,
			    .rank = (type == STT_FUNC ? 0u : 2u) + t,
			};
		}
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), cmp_sym);
	return HS_OK;
}

/* The preferred symbol starting exactly at vaddr, or NULL. */
static const struct sym_entry *symbol_at(const struct sym_index *ix, uint64_t vaddr)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->v[mid].value < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && ix->v[lo].value == vaddr ? &ix->v[lo] : NULL;
}

/* Decodes one code region into arr: from start, over its symbol's size (none: to s_endpgm). */
static void disasm_region(const struct cob_elf *e, const struct sym_index *ix,
                          const struct hs_mc_api *api, struct hs_mc_disasm *dis, uint64_t start,
                          bool stub, cJSON *arr)
{
	const struct sym_entry *first = symbol_at(ix, start);
	uint64_t off, size = first && first->rank < 2 ? first->size : 0, avail, pos = 0;
	size_t sec = cob_elf_vaddr_to_off(e, start, 4, &off);
	char text[256];

	if (!sec)
		return;
	avail = e->sec[sec].sh.sh_size - (start - e->sec[sec].sh.sh_addr);
	if (size && size < avail)
		avail = size;
	if (stub && avail > HS_STUB_SIZE)
		avail = HS_STUB_SIZE;
	for (unsigned n = 0; pos + 4 <= avail && n < DISASM_MAX_INSNS; n++) {
		const struct sym_entry *label = symbol_at(ix, start + pos);
		cJSON *line = cJSON_CreateObject();
		size_t len = api->decode(dis, e->buf + off + pos, avail - pos, start + pos, text,
		                         sizeof(text));
		if (!line)
			return;
		if (len == 0) {
			snprintf(text, sizeof(text), ".long 0x%08x", hs_rd32(e->buf + off + pos));
			len = 4;
		}
		if (label)
			cJSON_AddStringToObject(line, "label", label->name);
		add_hex(line, "vaddr", start + pos);
		cJSON_AddStringToObject(line, "text", text);
		cJSON_AddItemToArray(arr, line);
		pos += len;
		/* A stub ends in s_code_end padding; without a size, a kernel ends at s_endpgm. */
		if ((stub && !strcmp(text, "s_code_end")) ||
		    (!size && !stub && !strcmp(text, "s_endpgm")))
			break;
	}
}

static enum hs_status add_kernel(const struct hs_object *obj, const struct sym_index *ix,
                                 const struct cob_kernel *k, unsigned flags, struct hs_decoder *dec,
                                 cJSON *arr)
{
	const struct cob_elf *e = &obj->e;
	const struct hs_meta *m = obj->meta;
	const GElf_Shdr *text = &e->sec[e->text].sh;
	cJSON *o = cJSON_CreateObject(), *kd = cJSON_CreateObject();
	const struct kd *d = &k->desc;
	uint64_t v, off, target = 0;
	bool in_text = k->entry >= text->sh_addr && k->entry - text->sh_addr < text->sh_size;
	bool is_stub = false;
	char name[256];
	size_t sec;

	if (!o || !kd)
		goto oom;
	cJSON_AddItemToArray(arr, o);
	cJSON_AddStringToObject(o, "name", k->name);
	if (m && k->meta >= 0 && hs_meta_kernel_name(m, k->meta, name, sizeof(name)))
		cJSON_AddStringToObject(o, "metadata_name", name);
	cJSON_AddItemToObject(o, "descriptor", kd);
	add_hex(kd, "vaddr", k->kd_vaddr);
	cJSON_AddNumberToObject(kd, "group_segment_fixed_size", d->group_segment_fixed_size);
	cJSON_AddNumberToObject(kd, "private_segment_fixed_size", d->private_segment_fixed_size);
	cJSON_AddNumberToObject(kd, "kernarg_size", d->kernarg_size);
	cJSON_AddNumberToObject(kd, "kernel_code_entry_byte_offset", (double)d->entry_offset);
	cJSON_AddNumberToObject(kd, "kernel_code_properties", d->properties);
	cJSON_AddNumberToObject(kd, "kernarg_preload", d->kernarg_preload);
	cJSON_AddItemToObject(kd, "compute_pgm_rsrc1", decode_reg(d->rsrc1, obj->layout, KD_RSRC1));
	cJSON_AddItemToObject(kd, "compute_pgm_rsrc2", decode_reg(d->rsrc2, obj->layout, KD_RSRC2));
	cJSON_AddItemToObject(kd, "compute_pgm_rsrc3", decode_reg(d->rsrc3, obj->layout, KD_RSRC3));
	add_hex(o, "entry", k->entry);
	sec = k->entry_sec;
	off = k->entry_off;
	if (!in_text && sec) {
		uint64_t avail = e->sec[sec].sh.sh_size - (k->entry - e->sec[sec].sh.sh_addr);
		unsigned pair;
		/* Only the raw prefilter here: inspect loads LLVM only when asked to disassemble.
		 */
		is_stub = hs_stub_raw_match(e->buf + off, avail, &pair);
		if (is_stub) {
			target = hs_stub_target(e->buf + off, k->entry);
			add_hex(o, "stub_target", target);
			cJSON_AddStringToObject(o, "stub_scratch",
			                        pair == SGPR_VCC ? "vcc" : "sgpr");
			cJSON_AddNumberToObject(o, "stub_scratch_sgpr", pair);
		}
	}
	cJSON_AddBoolToObject(o, "entry_in_text", in_text);
	cJSON_AddBoolToObject(o, "entry_is_stub", is_stub);
	cJSON_AddBoolToObject(
	    o, "entry_has_prologue",
	    in_text &&
	        hs_entry_has_prologue(e->buf + off, text->sh_size - (k->entry - text->sh_addr)));
	if (m && k->meta >= 0) {
		if (hs_meta_get_uint(m, k->meta, ".sgpr_count", &v))
			cJSON_AddNumberToObject(o, "sgpr_count", (double)v);
		if (hs_meta_get_uint(m, k->meta, ".vgpr_count", &v))
			cJSON_AddNumberToObject(o, "vgpr_count", (double)v);
	}
	if (flags & HS_INSPECT_DISASM) {
		enum hs_status st = hs_decoder_get(dec);
		cJSON *lines;
		if (st)
			return st;
		lines = cJSON_AddArrayToObject(o, "disasm");
		if (!lines)
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		disasm_region(e, ix, dec->api, dec->dis, k->entry, is_stub, lines);
		if (is_stub)
			disasm_region(e, ix, dec->api, dec->dis, target, false, lines);
	}
	return HS_OK;
oom:
	cJSON_Delete(o);
	cJSON_Delete(kd);
	return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
}

/* Every note record of every SHT_NOTE section: section, owner, type, size (up to a bad one). */
static void add_notes(const struct cob_elf *e, cJSON *root)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "notes");

	for (size_t i = 1; arr && i < e->shnum; i++) {
		struct cob_note_iter it;
		struct cob_note note;

		if (e->sec[i].sh.sh_type != SHT_NOTE)
			continue;
		cob_elf_notes(&it, e, i);
		while (cob_note_next(&it, &note) == COB_NOTE_RECORD) {
			cJSON *n = cJSON_CreateObject();
			char owner[64];
			uint32_t len = note.namesz;
			if (!n)
				return;
			snprintf(owner, sizeof(owner), "%.*s",
			         (int)(len && len < sizeof(owner) ? len - 1 : 0), note.name);
			cJSON_AddStringToObject(n, "section", e->sec[i].name);
			cJSON_AddStringToObject(n, "owner", owner);
			cJSON_AddNumberToObject(n, "type", note.type);
			cJSON_AddNumberToObject(n, "size", (double)note.descsz);
			cJSON_AddItemToArray(arr, n);
		}
	}
}

/* Per kernel: the B0-only sites the B0->A0 pass would change or leave alone (gfx1250). */
struct site_lists {
	const struct hs_b0a0_scan *s;
	cJSON **by_kernel;
};

static enum hs_status add_site(void *ctx, const struct hs_b0a0_hit *h)
{
	struct site_lists *l = ctx;
	cJSON **list, *o;

	if (h->kernel == SIZE_MAX)
		return HS_OK;
	list = &l->by_kernel[h->kernel];
	if (!*list && !(*list = cJSON_CreateArray()))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	o = cJSON_CreateObject();
	if (!o)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	cJSON_AddItemToArray(*list, o);
	add_hex(o, "vaddr", l->s->text_vaddr + h->in->offset);
	add_hex(o, "text_offset", h->in->offset);
	cJSON_AddStringToObject(o, "instruction", isa_inst_mnemonic(h->in));
	cJSON_AddStringToObject(o, "b0a0", hs_b0a0_site_class(h->kind));
	return HS_OK;
}

/* Lists every kernel's sites (by_kernel[i] stays NULL for a kernel without any). */
static enum hs_status b0a0_sites(const struct hs_object *o, cJSON **by_kernel)
{
	struct hs_b0a0_scan s;
	struct site_lists l = {&s, by_kernel};
	enum hs_status st = hs_b0a0_scan_init(&s, o);

	if (!st)
		st = hs_b0a0_scan_run(&s, add_site, &l);
	hs_b0a0_scan_free(&s);
	return st;
}

HS_API enum hs_status hs_inspect(const void *in, size_t in_size, unsigned flags, const char *kernel,
                                 char **json)
{
	struct hs_object obj;
	struct sym_index ix = {0};
	size_t shown = 0;
	struct hs_decoder dec = {0}; /* created by the first kernel disassembled */
	cJSON *root = NULL, *arr, *pools, **sites = NULL;
	enum hs_status st;
	char buf[128];

	hs_clear_error();
	if (in && !in_size)
		return hs_fail(HS_INVALID_ARGUMENT, "empty input");
	if (!in || !json || (flags & ~HS_INSPECT_DISASM))
		return hs_fail(HS_INVALID_ARGUMENT, "hs_inspect: bad arguments");
	st = hs_object_load(&obj, in, in_size);
	if (st)
		return st;
	if (flags & HS_INSPECT_DISASM)
		st = sym_index_build(&obj.e, &ix);
	if (!st && hs_isa_is_gfx1250(&obj.isa)) {
		sites = calloc(obj.ks.n ? obj.ks.n : 1, sizeof(*sites));
		st =
		    sites ? b0a0_sites(&obj, sites) : hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	}
	if (st)
		goto cleanup;
	dec.cpu = obj.isa.gfx->name;
	root = cJSON_CreateObject();
	if (!root) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	hs_isa_format(&obj.isa, buf, sizeof(buf));
	cJSON_AddStringToObject(root, "isa", buf);
	cJSON_AddStringToObject(root, "processor", obj.isa.gfx->name);
	add_hex(root, "e_flags", obj.e.eh.e_flags);
	arr = cJSON_AddArrayToObject(root, "kernels");
	for (size_t i = 0; arr && i < obj.ks.n; i++) {
		char mname[256];
		if (kernel && strcmp(kernel, obj.ks.k[i].name) &&
		    !(obj.meta && obj.ks.k[i].meta >= 0 &&
		      hs_meta_kernel_name(obj.meta, obj.ks.k[i].meta, mname, sizeof(mname)) &&
		      !strcmp(kernel, mname)))
			continue;
		st = add_kernel(&obj, &ix, &obj.ks.k[i], flags, &dec, arr);
		if (st)
			goto cleanup;
		/* Only kernels with sites get the key, so other objects describe as before. */
		if (sites && sites[i]) {
			cJSON_AddItemToObject(cJSON_GetArrayItem(arr, cJSON_GetArraySize(arr) - 1),
			                      "b0a0_sites", sites[i]);
			sites[i] = NULL;
		}
		shown++;
	}
	if (kernel && !shown) {
		st = hs_fail(HS_INVALID_ARGUMENT, "no kernel named '%s'", kernel);
		goto cleanup;
	}
	if (obj.meta)
		cJSON_AddItemToObject(root, "metadata", hs_meta_to_json(obj.meta));
	/* Notes the HSA runtime's reader would not merge either: their kernels have no metadata. */
	if (hs_meta_left_out(obj.meta))
		cJSON_AddNumberToObject(root, "metadata_notes_left_out",
		                        (double)hs_meta_left_out(obj.meta));
	add_notes(&obj.e, root);
	pools = cJSON_AddArrayToObject(root, "pools");
	for (size_t i = 0; pools && i < obj.n_prov; i++) {
		cJSON *p = cJSON_CreateObject();
		if (!p)
			break;
		cJSON_AddNumberToObject(p, "version", obj.prov[i].version);
		cJSON_AddBoolToObject(p, "entry_trampolines",
		                      obj.prov[i].transforms & HS_XFORM_ENTRY_TRAMPOLINES);
		cJSON_AddBoolToObject(p, "b0a0", obj.prov[i].transforms & HS_XFORM_B0A0);
		/* Only translations carry the key, so other objects describe as before. */
		if (obj.prov[i].transforms & HS_XFORM_TRANSLATE)
			cJSON_AddBoolToObject(p, "translate", true);
		cJSON_AddStringToObject(p, "target_state", hs_state_name(obj.prov[i].state));
		add_hex(p, "vaddr", obj.prov[i].pool_vaddr);
		cJSON_AddNumberToObject(p, "size", (double)obj.prov[i].pool_size);
		cJSON_AddItemToArray(pools, p);
	}
	{
		/* A translated object says what it was made from and by which translator. */
		struct hs_translation_prov t;
		bool found;
		st = hs_translation_read(&obj.e, &t, &found);
		if (st)
			goto cleanup;
		if (found) {
			cJSON *x = cJSON_AddObjectToObject(root, "translation");
			cJSON_AddStringToObject(x, "source_isa", t.source);
			cJSON_AddStringToObject(x, "target_isa", t.target);
			cJSON_AddStringToObject(x, "translator_build", t.build);
		}
	}
	*json = cJSON_PrintUnformatted(root);
	if (!*json)
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory printing JSON");
cleanup:
	for (size_t i = 0; sites && i < obj.ks.n; i++)
		cJSON_Delete(sites[i]);
	free(sites);
	hs_decoder_release(&dec);
	cJSON_Delete(root);
	free(ix.v);
	hs_object_free(&obj);
	return st;
}
