# mirage hotswap install reads a local archive through one descriptor: swapping the file
# (a rename over it, or a rewrite in place) right after mirage last read it changes nothing;
# the installed tree is the one whose SHA-256 was checked and printed.  The race is run by an
# LD_PRELOAD shim that does the swap inside mirage's first close() of a descriptor open on
# the archive, so the attacker wins the timing every time.
source "$(dirname "$0")/hotswap_lib.sh"

make_tree "$T/src/tree"
make_tree "$T/evil/tree"
echo "evil payload" >"$T/evil/tree/runtime/hotswap_py/sitecustomize.py"
make_tarball "$T/good.tar.gz" "$T/src/tree"
make_tarball "$T/evil.tar.gz" "$T/evil/tree"
GOOD_SUM=$(sha256_of "$T/good.tar.gz")

cat >"$T/swap.c" <<'C'
/* Swaps $SWAP_TARGET for $SWAP_WITH (rename, or SWAP_MODE=inplace: rewrite the same inode)
 * just before the first close() of a descriptor open on $SWAP_TARGET. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int swapped;
static int (*real_close)(int);

static void swap_now(const char *target, const char *with)
{
	const char *mode = getenv("SWAP_MODE");
	char buf[65536];
	ssize_t n;
	int in, out;
	if (!mode || strcmp(mode, "inplace")) {
		rename(with, target);
		return;
	}
	in = open(with, O_RDONLY);
	out = open(target, O_WRONLY | O_TRUNC);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (in >= 0)
		real_close(in);
	if (out >= 0)
		real_close(out);
}

int close(int fd)
{
	const char *target = getenv("SWAP_TARGET"), *with = getenv("SWAP_WITH");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (!swapped && target && with) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		if (n > 0) {
			path[n] = '\0';
			if (!strcmp(path, target)) {
				swapped = 1;
				swap_now(target, with);
			}
		}
	}
	return real_close(fd);
}
C
$CC -shared -fPIC -o "$T/swap.so" "$T/swap.c" -ldl || exit 1

# swap_install MODE NAME: installs $T/victim.tar.gz (a copy of good) with --sha256 of good,
# while the shim swaps evil in.
swap_install() {
	cp "$T/good.tar.gz" "$T/victim.tar.gz"
	cp "$T/evil.tar.gz" "$T/swap-in.tar.gz"
	run_capture env LD_PRELOAD="$T/swap.so" SWAP_MODE="$1" SWAP_TARGET="$T/victim.tar.gz" \
		SWAP_WITH="$T/swap-in.tar.gz" "$MIRAGE_EXE" hotswap install "$T/victim.tar.gz" \
		--sha256 "$GOOD_SUM" --name "$2" </dev/null
	OUT=$RUN_STDOUT ERR=$RUN_STDERR RC=$RUN_STATUS
	# The race really ran: the path now holds the other archive.
	assert_eq "$(sha256_of "$T/victim.tar.gz")" "$(sha256_of "$T/evil.tar.gz")" \
		"$1: the archive was swapped during the install"
}

for mode in rename inplace; do
	swap_install "$mode" "t-$mode"
	expect_rc 0 "$mode: install with the archive swapped after it was read"
	expect_out "sha256 $GOOD_SUM" "$mode: the printed digest"
	# What was installed is what was hashed: the good tree, byte for byte.
	if diff -r "$T/src/tree" "$DATA/hotswap/t-$mode" >/dev/null; then
		ok "$mode: the installed tree is the hashed archive's"
	else
		fail "$mode: the installed tree is not the hashed archive's: $(diff -r "$T/src/tree" "$DATA/hotswap/t-$mode" 2>&1 | head -3)"
	fi
done
assert_eq "$(dot_entries)" "" "no temp files are left"

finish
