/*
 * The build identity of a HotSwap tree's rewriter: which bytes of the rewriter, its MC
 * library and the translator beside it do the work.  It is part of every translation cache
 * key, so that a rebuilt library never gets its predecessor's output; the rewriter
 * (hs_build_identity), the intercept core and `mirage cache warm` all compute it here, so
 * that a key one of them stores is the key the others look up.
 *
 * The GNU build-ids are read from the files (their PT_NOTE segments, with pread), not from
 * the loaded libraries: the identity is known before any of them is loaded, and a cache hit
 * loads none.  libc only.
 */
#ifndef MIRAGE_BUILD_IDENTITY_H
#define MIRAGE_BUILD_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

/* Room for the version and three build-ids of up to 64 bytes each. */
#define BUILD_IDENTITY_MAX (64 + 3 * (16 + 2 * 64))

/*
 * The hex of path's NT_GNU_BUILD_ID note into out; false when the file cannot be read, is
 * not an ELF64 little-endian file, or carries no build-id (or one that does not fit).
 */
bool elf_build_id_hex(const char *path, char *out, size_t size);

/*
 * "<version> rewrite=<id> mc=<id> translate=<id>", each <id> the file's build-id or "none".
 * With lib_dir NULL (the libraries cannot be found), the version alone: still right across
 * releases.
 */
void build_identity_format(const char *version, const char *lib_dir, char *out, size_t size);

#endif
