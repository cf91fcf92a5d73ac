/* libhotswap_mc: LLVM MC's AMDGPU disassembler and assembler behind struct hs_mc_api. */
#include "hs_mc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Object.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "gfx_table.h"

#define HS_MC_TRIPLE "amdgcn-amd-amdhsa"
/*
 * Labels around the caller's instructions: the AMDGPU AsmPrinter pads .text
 * with s_code_end at the end of every object, so the section is longer than
 * what the caller wrote and only these labels say where their bytes end.
 */
#define HS_MC_BEGIN_LABEL "__hotswap_mc_begin"
#define HS_MC_END_LABEL   "__hotswap_mc_end"

/* Longer than any AMDGPU instruction (12-byte encoding + 64-bit literal = 20). */
#define HS_MC_DECODE_WINDOW 32

struct hs_mc_disasm {
	LLVMDisasmContextRef ctx;
	bool gfx12;  /* gfx12 or gfx12.5 encodings: the SOP1 barrier rule applies */
	bool gfx125; /* gfx12.5: the WMMA rule applies too */
};

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

static void llvm_init(void)
{
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUDisassembler();
	LLVMInitializeAMDGPUTarget();
	LLVMInitializeAMDGPUAsmPrinter();
	LLVMInitializeAMDGPUAsmParser();
}

static void set_err(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	if (!err || err_size == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
}

/*
 * LLVM prints "'x' is not a recognized processor" to stderr and carries on
 * with a generic CPU when given a name it does not know; a library must not
 * print, so only processors the project's gfx table marks as known to LLVM 22
 * ever reach LLVM.
 */
static bool cpu_known(const char *cpu)
{
	const struct gfx_info *gfx = cpu ? gfx_by_name(cpu) : NULL;

	return gfx && gfx->llvm22_known;
}

static struct hs_mc_disasm *mc_disasm_create(const char *cpu)
{
	const struct gfx_info *gfx;
	struct hs_mc_disasm *dis;

	if (!cpu_known(cpu) || !hs_mc_family_disassembles(gfx_by_name(cpu)->family))
		return NULL;
	pthread_once(&llvm_once, llvm_init);
	dis = calloc(1, sizeof(*dis));
	if (!dis)
		return NULL;
	gfx = gfx_by_name(cpu);
	dis->gfx125 = strcmp(gfx->family, "gfx12.5") == 0;
	dis->gfx12 = dis->gfx125 || strcmp(gfx->family, "gfx12") == 0;
	dis->ctx = LLVMCreateDisasmCPU(HS_MC_TRIPLE, cpu, NULL, 0, NULL, NULL);
	if (!dis->ctx) {
		free(dis);
		return NULL;
	}
	return dis;
}

static void mc_disasm_destroy(struct hs_mc_disasm *dis)
{
	if (!dis)
		return;
	LLVMDisasmDispose(dis->ctx);
	free(dis);
}

static uint32_t load_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Encodings LLVM 22's AMDGPU decoder crashes on (SIGSEGV, llvm-mc
 * -disassemble too), found by fuzz/fuzz_mc_decode and a sweep of literal and
 * SGPR operands over the SOP1/SOP2/SOPC/VOP1/VOP2/VOPC/VOP3/VOP3P spaces.
 * Every one is an encoding LLVM's assembler refuses, so calling it
 * undecodable loses nothing, and a code object cannot crash the process that
 * rewrites it.
 */
static bool llvm22_crasher(const struct hs_mc_disasm *dis, const uint8_t *window)
{
	uint32_t w0 = load_u32(window), w1 = load_u32(window + 4);

	/*
	 * SOP1 s_barrier_signal, s_barrier_signal_isfirst, s_get_barrier_state,
	 * s_barrier_init, s_barrier_join (0x4e..0x52) and s_wakeup_barrier
	 * (0x57) with a literal source (0xff); these take no literal.
	 */
	if (dis->gfx12 && (w0 & 0xff8000ffu) == 0xbe8000ffu) {
		uint32_t op = (w0 >> 8) & 0xff;

		if ((op >= 0x4e && op <= 0x52) || op == 0x57)
			return true;
	}
	/*
	 * VOP3P v_wmma_f32_16x16x128_f8f6f4 (0x33) whose A or B matrix is not
	 * in VGPRs: with the FP6/BF6 formats LLVM looks for a 12-register SGPR
	 * tuple that does not exist.  Bit 8 of a 9-bit source field means VGPR.
	 */
	if (dis->gfx125 && (w0 & 0xff7f0000u) == 0xcc330000u &&
	    (!(w1 & 0x100u) || !(w1 & (0x100u << 9))))
		return true;
	return false;
}

/*
 * LLVM 22 decodes the 16-bit constant K of VOP2 v_fmamk_f16/v_fmaak_f16
 * (gfx11+ opcodes 0x37/0x38) as if it were an operand field: a K of 0xff
 * crashes it (llvm-mc -disassemble too), and 0x80..0xfe print as inline
 * constants.  Such a K is swapped for a harmless marker before decoding and
 * put back into the text afterwards.  Returns the original K, or 0 when the
 * bytes are not affected.
 */
#define HS_MC_K16_MARKER 0x1234u

static uint32_t fp16_k_workaround(uint8_t window[HS_MC_DECODE_WINDOW])
{
	uint32_t w0 = load_u32(window), k = load_u32(window + 4);
	uint32_t op = w0 >> 25; /* bit 31 is 0 for VOP2, so this is the opcode */

	if ((op != 0x37 && op != 0x38) || k < 0x80 || k > 0xff)
		return 0;
	window[4] = (uint8_t)HS_MC_K16_MARKER;
	window[5] = (uint8_t)(HS_MC_K16_MARKER >> 8);
	return k;
}

/* Puts K back where the marker was printed; false if the decode is not the one expected. */
static bool fp16_k_restore(char *buf, size_t size, size_t n, uint32_t k)
{
	char marker[16], value[16], tmp[512];
	char *at;

	snprintf(marker, sizeof(marker), "0x%x", HS_MC_K16_MARKER);
	snprintf(value, sizeof(value), "0x%x", k);
	at = strstr(buf, marker);
	if (n != 8 || !at || strstr(at + 1, marker) ||
	    (!strstr(buf, "v_fmamk_f16") && !strstr(buf, "v_fmaak_f16")))
		return false;
	snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)(at - buf), buf, value, at + strlen(marker));
	snprintf(buf, size, "%s", tmp);
	return true;
}

static size_t mc_decode(struct hs_mc_disasm *dis, const uint8_t *bytes, size_t size, uint64_t vaddr,
                        char *text, size_t text_size)
{
	uint8_t window[HS_MC_DECODE_WINDOW] = {0};
	char buf[512];
	const char *p = buf;
	uint32_t k16;
	size_t n;

	if (text && text_size)
		text[0] = '\0';
	if (!dis || !bytes || size == 0)
		return 0;
	/*
	 * LLVM 22's AMDGPU decoder crashes formatting its "cannot read literal"
	 * comment when the bytes end inside an instruction's literal.  It always
	 * gets a zero-padded window longer than any instruction instead, and an
	 * instruction that runs past the caller's bytes counts as undecodable.
	 */
	memcpy(window, bytes, size < sizeof(window) ? size : sizeof(window));
	if (llvm22_crasher(dis, window))
		return 0;
	k16 = fp16_k_workaround(window);
	buf[0] = '\0';
	n = LLVMDisasmInstruction(dis->ctx, window, sizeof(window), vaddr, buf, sizeof(buf));
	if (n == 0 || n > size)
		return 0;
	if (k16 && !fp16_k_restore(buf, sizeof(buf), n, k16))
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (text && text_size)
		snprintf(text, text_size, "%s", p);
	return n;
}

/* What the diagnostic handler collects while one assemble() call runs. */
struct diag_state {
	bool failed;
	char msg[512];
};

/* Lines of wrapper text mc_assemble() puts before the caller's source. */
#define HS_MC_HEAD_LINES 2

/*
 * Turns LLVM's "<inline asm>:L:C: message\nsource line\n   ^" into one line
 * that counts lines in the caller's source: "message (line 1, column 5: 'foo s0')".
 */
static void format_diag(char *dst, size_t size, const char *desc)
{
	static const char prefix[] = "<inline asm>:";
	const char *p, *msg_end, *src, *src_end;
	char *end;
	long line, col;

	if (strncmp(desc, prefix, sizeof(prefix) - 1) != 0)
		goto verbatim;
	p = desc + sizeof(prefix) - 1;
	line = strtol(p, &end, 10);
	if (end == p || *end != ':')
		goto verbatim;
	p = end + 1;
	col = strtol(p, &end, 10);
	if (end == p || strncmp(end, ": ", 2) != 0 || line <= HS_MC_HEAD_LINES)
		goto verbatim;
	p = end + 2;
	msg_end = strchr(p, '\n');
	if (!msg_end)
		msg_end = p + strlen(p);
	src = *msg_end ? msg_end + 1 : msg_end;
	src_end = strchr(src, '\n');
	if (!src_end)
		src_end = src + strlen(src);
	snprintf(dst, size, "%.*s (line %ld, column %ld: '%.*s')", (int)(msg_end - p), p,
	         line - HS_MC_HEAD_LINES, col, (int)(src_end - src), src);
	return;
verbatim:
	snprintf(dst, size, "%s", desc);
}

static void diag_handler(LLVMDiagnosticInfoRef di, void *ctx)
{
	struct diag_state *st = ctx;
	char *desc;

	if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
		return;
	desc = LLVMGetDiagInfoDescription(di);
	/* Keep the first error: later ones are usually consequences of it. */
	if (!st->failed)
		format_diag(st->msg, sizeof(st->msg), desc ? desc : "unknown error");
	st->failed = true;
	LLVMDisposeMessage(desc);
}

/* Finds the .text section of an object and the offsets of our two labels in it. */
static int extract_text(LLVMBinaryRef bin, uint8_t **out, size_t *out_size, char *err,
                        size_t err_size)
{
	LLVMSectionIteratorRef sec = NULL;
	LLVMSymbolIteratorRef sym = NULL;
	LLVMRelocationIteratorRef rel = NULL;
	const char *contents = NULL;
	uint64_t text_size = 0, begin = 0, end = 0;
	bool have_text = false, have_begin = false, have_end = false;
	uint8_t *buf = NULL;
	int ret = -1;

	sec = LLVMObjectFileCopySectionIterator(bin);
	sym = LLVMObjectFileCopySymbolIterator(bin);
	if (!sec || !sym) {
		set_err(err, err_size, "cannot read the assembled object");
		goto cleanup;
	}
	for (; !LLVMObjectFileIsSectionIteratorAtEnd(bin, sec); LLVMMoveToNextSection(sec)) {
		const char *name = LLVMGetSectionName(sec);

		if (name && strcmp(name, ".text") == 0) {
			have_text = true;
			contents = LLVMGetSectionContents(sec);
			text_size = LLVMGetSectionSize(sec);
			rel = LLVMGetRelocations(sec);
			break;
		}
	}
	if (!have_text) {
		set_err(err, err_size, "assembled object has no .text section");
		goto cleanup;
	}
	/*
	 * A relocation means an instruction refers to a symbol the source did
	 * not define; its bytes would be wrong wherever the caller puts them.
	 */
	if (rel && !LLVMIsRelocationIteratorAtEnd(sec, rel)) {
		LLVMSymbolIteratorRef rsym = LLVMGetRelocationSymbol(rel);
		const char *rname = rsym ? LLVMGetSymbolName(rsym) : NULL;

		set_err(err, err_size, "unresolved reference to '%s' at .text+0x%llx",
		        rname ? rname : "?", (unsigned long long)LLVMGetRelocationOffset(rel));
		if (rsym)
			LLVMDisposeSymbolIterator(rsym);
		goto cleanup;
	}
	for (; !LLVMObjectFileIsSymbolIteratorAtEnd(bin, sym); LLVMMoveToNextSymbol(sym)) {
		const char *name = LLVMGetSymbolName(sym);

		if (!name)
			continue;
		if (strcmp(name, HS_MC_BEGIN_LABEL) == 0) {
			begin = LLVMGetSymbolAddress(sym);
			have_begin = true;
		} else if (strcmp(name, HS_MC_END_LABEL) == 0) {
			end = LLVMGetSymbolAddress(sym);
			have_end = true;
		}
	}
	if (!have_begin || !have_end || begin > end || end > text_size) {
		set_err(err, err_size, "instructions did not end up in .text");
		goto cleanup;
	}
	if (end > begin && !contents) {
		set_err(err, err_size, "cannot read .text of the assembled object");
		goto cleanup;
	}
	/* malloc(0) may return NULL; callers get a valid pointer for empty output too. */
	buf = malloc(end - begin ? end - begin : 1);
	if (!buf) {
		set_err(err, err_size, "out of memory");
		goto cleanup;
	}
	if (end > begin)
		memcpy(buf, contents + begin, end - begin);
	*out = buf;
	*out_size = end - begin;
	ret = 0;
cleanup:
	if (rel)
		LLVMDisposeRelocationIterator(rel);
	if (sym)
		LLVMDisposeSymbolIterator(sym);
	if (sec)
		LLVMDisposeSectionIterator(sec);
	return ret;
}

static bool is_symbol_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

/*
 * Accepts instructions and labels only.  Directives are refused: .include
 * and .incbin read files, and some (.fill with a negative count) make LLVM
 * 22's object streamer print to stderr or crash when they come from inline
 * asm.  Statements end at a newline; ';' starts a comment.
 */
static int check_no_directives(const char *source, char *err, size_t err_size)
{
	const char *line = source;
	int lineno = 1;

	while (*line) {
		const char *eol = strchr(line, '\n');
		const char *p = line, *q;

		if (!eol)
			eol = line + strlen(line);
		for (;;) {
			while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
				p++;
			for (q = p; q < eol && is_symbol_char(*q); q++)
				;
			if (q == p || q >= eol || *q != ':')
				break;
			p = q + 1; /* a label; a statement may follow on the same line */
		}
		if (p < eol && *p == '.') {
			set_err(err, err_size, "directives are not supported (line %d: '%.*s')",
			        lineno, (int)(eol - line), line);
			return -1;
		}
		line = *eol ? eol + 1 : eol;
		lineno++;
	}
	return 0;
}

static int mc_assemble(const char *cpu, const char *source, uint8_t **out, size_t *out_size,
                       char *err, size_t err_size)
{
	static const char head[] = "\t.text\n" HS_MC_BEGIN_LABEL ":\n";
	static const char tail[] = "\n\t.text\n" HS_MC_END_LABEL ":\n";
	struct diag_state diag = {.failed = false};
	LLVMContextRef ctx = NULL;
	LLVMModuleRef mod = NULL;
	LLVMTargetMachineRef tm = NULL;
	LLVMMemoryBufferRef obj = NULL;
	LLVMBinaryRef bin = NULL;
	LLVMTargetRef target = NULL;
	char *asm_text = NULL, *msg = NULL;
	size_t src_len;
	int ret = -1;

	if (err && err_size)
		err[0] = '\0';
	if (!source || !out || !out_size) {
		set_err(err, err_size, "invalid argument");
		return -1;
	}
	if (!cpu_known(cpu)) {
		set_err(err, err_size, "unknown processor '%s'", cpu ? cpu : "(null)");
		return -1;
	}
	if (check_no_directives(source, err, err_size) != 0)
		return -1;
	pthread_once(&llvm_once, llvm_init);

	src_len = strlen(source);
	asm_text = malloc(sizeof(head) - 1 + src_len + sizeof(tail));
	if (!asm_text) {
		set_err(err, err_size, "out of memory");
		goto cleanup;
	}
	memcpy(asm_text, head, sizeof(head) - 1);
	memcpy(asm_text + sizeof(head) - 1, source, src_len);
	memcpy(asm_text + sizeof(head) - 1 + src_len, tail, sizeof(tail));

	if (LLVMGetTargetFromTriple(HS_MC_TRIPLE, &target, &msg)) {
		set_err(err, err_size, "no AMDGPU target in libLLVM: %s", msg ? msg : "?");
		goto cleanup;
	}
	ctx = LLVMContextCreate();
	if (!ctx) {
		set_err(err, err_size, "cannot create an LLVM context");
		goto cleanup;
	}
	/*
	 * Without a handler LLVM prints assembler errors to stderr and calls
	 * exit(1); with one, they come here and the call fails cleanly.
	 */
	LLVMContextSetDiagnosticHandler(ctx, diag_handler, &diag);
	mod = LLVMModuleCreateWithNameInContext("hotswap_mc", ctx);
	LLVMSetTarget(mod, HS_MC_TRIPLE);
	LLVMSetModuleInlineAsm2(mod, asm_text, strlen(asm_text));
	tm = LLVMCreateTargetMachine(target, HS_MC_TRIPLE, cpu, "", LLVMCodeGenLevelNone,
	                             LLVMRelocDefault, LLVMCodeModelDefault);
	if (!tm) {
		set_err(err, err_size, "cannot create an AMDGPU target machine for %s", cpu);
		goto cleanup;
	}
	{
		LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
		char *dls = LLVMCopyStringRepOfTargetData(dl);

		LLVMSetDataLayout(mod, dls);
		LLVMDisposeMessage(dls);
		LLVMDisposeTargetData(dl);
	}
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj)) {
		set_err(err, err_size, "%s", diag.failed ? diag.msg : msg ? msg : "emit failed");
		goto cleanup;
	}
	if (diag.failed) {
		set_err(err, err_size, "%s", diag.msg);
		goto cleanup;
	}
	bin = LLVMCreateBinary(obj, ctx, &msg);
	if (!bin) {
		set_err(err, err_size, "cannot read the assembled object: %s", msg ? msg : "?");
		goto cleanup;
	}
	ret = extract_text(bin, out, out_size, err, err_size);
cleanup:
	if (bin)
		LLVMDisposeBinary(bin);
	if (obj)
		LLVMDisposeMemoryBuffer(obj);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	if (mod)
		LLVMDisposeModule(mod);
	if (ctx)
		LLVMContextDispose(ctx);
	LLVMDisposeMessage(msg);
	free(asm_text);
	return ret;
}

static const struct hs_mc_api api = {
    .version = HS_MC_API_VERSION,
    .disasm_create = mc_disasm_create,
    .disasm_destroy = mc_disasm_destroy,
    .decode = mc_decode,
    .assemble = mc_assemble,
};

__attribute__((visibility("default"))) const struct hs_mc_api *hs_mc_get_api(void);

const struct hs_mc_api *hs_mc_get_api(void)
{
	return &api;
}
