/*
 * bad_fatbin MODE [FILE]: registers one fat binary the way clang's module constructor does,
 * but a bad one, then exits 0 if the process survived.  MODE: null (a null wrapper), magic
 * (a wrapper with a wrong magic), version (a wrong version), unmapped (a wrapper pointing at
 * memory that is not mapped), file (a wrapper pointing at FILE's bytes).  FILE's bytes end
 * where a page no access is allowed to begins, so a reader that trusts a count or an offset
 * past them faults instead of reading on.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void **__hipRegisterFatBinary(const void *wrapper);

struct wrapper {
	uint32_t magic, version;
	const void *binary, *unused;
};

/* FILE's bytes, placed to end at a PROT_NONE page. */
static const void *guarded(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size, pages;
	uint8_t *m;

	if (!f || fseek(f, 0, SEEK_END) || (long)(size = (size_t)ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		return NULL;
	pages = (size + page - 1) / page;
	m = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
	         0);
	if (m == MAP_FAILED || mprotect(m + pages * page, page, PROT_NONE) ||
	    fread(m + pages * page - size, 1, size, f) != size) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	return m + pages * page - size;
}

/* The runtime's handle, kept as clang's constructor keeps it (__hip_gpubin_handle). */
static void **handle;

int main(int argc, char **argv)
{
	static struct wrapper w = {0x48495046u, 1, NULL, NULL};
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "null")) {
		handle = __hipRegisterFatBinary(NULL);
	} else if (!strcmp(mode, "magic") || !strcmp(mode, "version")) {
		w.magic = mode[0] == 'm' ? 0x46504948u : w.magic;
		w.version = mode[0] == 'v' ? 2 : 1;
		w.binary = "__CLANG_OFFLOAD_BUNDLE__";
		handle = __hipRegisterFatBinary(&w);
	} else if (!strcmp(mode, "unmapped")) {
		w.binary = (const void *)(uintptr_t)4096;
		handle = __hipRegisterFatBinary(&w);
	} else if (!strcmp(mode, "file") && argc > 2 && (w.binary = guarded(argv[2]))) {
		handle = __hipRegisterFatBinary(&w);
	} else {
		fprintf(stderr, "usage: bad_fatbin null|magic|version|unmapped|file FILE\n");
		return 2;
	}
	puts(handle ? "registered" : "registered (no handle)");
	return 0;
}
