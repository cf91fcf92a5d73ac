#!/usr/bin/env bash
# The Debian package, built and installed as a user would install it: `cpack -G DEB` from
# BUILD_DIR (cmake/DebianPackage.cmake), lintian with no error, then `apt-get install
# ./mirage_*.deb` into a minimal Debian 12 chroot that debootstrap made (with the host's apt
# sources, where LLVM 22 comes from), so that every file and dependency comes from the package
# and the archive.  From the installed files only: mirage --version, paths and doctor, the man
# page and the completions where Debian's man and shells look, a rewrite with entry
# trampolines, a translation for gfx942 (linked by lld in the translator, and once more by the
# tree's ld.lld, which needs the Depends on lld-22), a kernel run on the CPU, and a purge that
# leaves nothing.  Exits non-zero at the
# first failed check.
#
# The minimal root is kept between runs as a tarball in $MIRAGE_CHROOT_CACHE (default
# /var/cache/mirage-ci), made again when it is missing or cannot be unpacked.
#
# usage: tests/install/check_deb.sh BUILD_DIR     (scripts/test.sh runs it; needs root)
set -euo pipefail

build=$(cd "${1:?usage: check_deb.sh BUILD_DIR}" && pwd -P)
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
version=$(cache CMAKE_PROJECT_VERSION)
n=0
ok() { n=$((n + 1)) && echo "ok $n - $*"; }
fail() {
	echo "not ok $((n + 1)) - $*" >&2
	exit 1
}
if [ "$(id -u)" -ne 0 ]; then
	echo "check_deb: skipped: debootstrap and chroot need root (scripts/test.sh runs as root)"
	exit 0
fi
for tool in cpack lintian debootstrap dpkg-deb; do
	command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/setup.sh installs it)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mirage-deb.XXXXXX")
root=$tmp/root
cleanup() {
	mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
	rm -rf "$tmp"
}
trap cleanup EXIT

# The package.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
	fail "cpack -G DEB: $(tail -5 "$tmp/cpack.log")"
deb=$tmp/pkg/mirage_${version}_amd64.deb
[ -f "$deb" ] || fail "cpack made no $deb: $(ls "$tmp/pkg")"
ok "cpack -G DEB: ${deb##*/}, $(stat -c %s "$deb") bytes"
lintian --fail-on error "$deb" >"$tmp/lintian.log" 2>&1 ||
	fail "lintian reports errors:"$'\n'"$(grep -v '^running with root' "$tmp/lintian.log")"
ok "lintian: no error ($(grep -c '^W:' "$tmp/lintian.log" || true) warnings)"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/mirage ./usr/share/man/man1/mirage.1.gz ./usr/share/man/man1/mirage-run.1.gz \
	./usr/share/bash-completion/completions/mirage ./usr/share/zsh/vendor-completions/_mirage \
	./usr/share/fish/vendor_completions.d/mirage.fish ./usr/share/doc/mirage/copyright \
	./usr/share/doc/mirage/changelog.gz ./usr/lib/mirage/hotswap/lib/libhotswap_intercept.so \
	./usr/lib/mirage/hotswap/lib/libmirage_translate.so ./usr/include/hotswap/rewrite.h; do
	grep -q " $f\( \|$\)" <<<"$contents" || fail "the package has no $f"
done
ok "the package holds the launcher, the HotSwap tree, man pages, completions, copyright, changelog"

# A minimal Debian 12 root with the host's apt sources.
chroot_cache=${MIRAGE_CHROOT_CACHE:-/var/cache/mirage-ci}
base=$chroot_cache/bookworm-minbase.tar.gz
mkdir -p "$root"
if ! { [ -s "$base" ] && tar -xzf "$base" -C "$root" 2>/dev/null; }; then
	rm -rf "$root" && mkdir -p "$root" "$chroot_cache"
	debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian \
		>"$tmp/debootstrap.log" 2>&1 || fail "debootstrap: $(tail -5 "$tmp/debootstrap.log")"
	tar -czf "$base.new" -C "$root" . && mv "$base.new" "$base"
fi
[ -x "$root/usr/bin/apt-get" ] || fail "no apt-get in the chroot"
rm -f "$root/etc/apt/sources.list" "$root"/etc/apt/sources.list.d/*
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] && cp "$f" "$root/etc/apt/sources.list.d/"
done
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/"
mount -t proc proc "$root/proc"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	NO_COLOR=1 DEBIAN_FRONTEND=noninteractive "$@"; }
! in_root sh -c 'command -v mirage clang-22 ld.lld-22' >/dev/null ||
	fail "the chroot is not clean: it has mirage or LLVM 22 before the install"
ok "a minimal Debian 12 root without mirage or LLVM"

cp "$deb" "$root/tmp/"
in_root apt-get update -qq >"$tmp/apt.log" 2>&1 || fail "apt-get update: $(tail -5 "$tmp/apt.log")"
in_root apt-get install -y -qq --no-install-recommends "/tmp/${deb##*/}" >>"$tmp/apt.log" 2>&1 ||
	fail "apt-get install ./${deb##*/}: $(tail -8 "$tmp/apt.log")"
ok "apt-get install ./${deb##*/} in the chroot, dependencies from the archive"

# From the installed files only.
got=$(in_root mirage --version) || fail "mirage --version"
[ "$got" = "mirage $version" ] || fail "installed mirage --version: '$got'"
paths=$(in_root mirage paths) || fail "mirage paths"
grep -Eq '^hotswap: +/usr/lib/mirage/hotswap \(install prefix' <<<"$paths" ||
	fail "mirage paths does not show /usr/lib/mirage/hotswap:"$'\n'"$paths"
doctor=$(in_root mirage doctor) || fail "mirage doctor failed:"$'\n'"$doctor"
grep -q "^ok    self-test: " <<<"$doctor" || fail "doctor's self-test did not pass:"$'\n'"$doctor"
ok "mirage --version, paths (the tree at /usr/lib/mirage/hotswap), doctor (self-test ok)"
in_root sh -c 'zcat /usr/share/man/man1/mirage.1.gz | head -20' | grep -q '^\.TH "mirage" 1' ||
	fail "/usr/share/man/man1/mirage.1.gz is not mirage(1)"
# Debian's zsh takes packaged completions from vendor-completions, on its default fpath.
in_root sh -c 'test -r /usr/share/bash-completion/completions/mirage &&
	test -r /usr/share/fish/vendor_completions.d/mirage.fish &&
	test -r /usr/share/zsh/vendor-completions/_mirage' || fail "a completion is missing"
ok "man page and completions where man, bash, zsh and fish look"

cp "$build/tests/fixtures/hello.co" "$build/examples/vector_add.co" "$root/tmp/"
in_root mirage rewrite /tmp/hello.co -o /tmp/hello.tramp.co --entry-trampolines \
	>"$tmp/rewrite.log" 2>&1 || fail "mirage rewrite --entry-trampolines: $(cat "$tmp/rewrite.log")"
in_root mirage inspect /tmp/hello.tramp.co --kernels | grep -q 'stub' ||
	fail "the rewrite has no entry stub"
ok "mirage rewrite --entry-trampolines from the installed rewriter"
in_root mirage rewrite /tmp/vector_add.co -o /tmp/vector_add.gfx942.co --target gfx942 \
	>"$tmp/translate.log" 2>&1 || fail "mirage rewrite --target gfx942: $(cat "$tmp/translate.log")"
in_root mirage inspect /tmp/vector_add.gfx942.co | grep -q 'gfx942' ||
	fail "the translation is not a gfx942 object"
ok "mirage rewrite --target gfx942: translated, linked by lld in the translator"
in_root env MIRAGE_LLD=/usr/lib/mirage/hotswap/llvm-tools/ld.lld mirage rewrite /tmp/vector_add.co \
	-o /tmp/vector_add.spawned.co --target gfx942 >"$tmp/translate.log" 2>&1 ||
	fail "mirage rewrite --target gfx942 with the tree's ld.lld: $(cat "$tmp/translate.log")"
cmp -s "$root/tmp/vector_add.gfx942.co" "$root/tmp/vector_add.spawned.co" ||
	fail "the tree's ld.lld (lld-22) links other bytes than lld in the translator"
ok "the tree's ld.lld (lld-22) links the same bytes"
in_root sh -c 'cd /tmp && mirage emulate --init vector_add.gfx942.co --kernel vector_add \
	-o va.json >/dev/null && mirage emulate va.json' >"$tmp/emulate.log" 2>&1 ||
	fail "mirage emulate of the translation: $(cat "$tmp/emulate.log")"
ok "mirage emulate runs the translated kernel on the CPU"

in_root apt-get purge -y -qq mirage >>"$tmp/apt.log" 2>&1 || fail "apt-get purge mirage"
left=$(cd "$root" && ls -d usr/lib/mirage usr/bin/mirage usr/share/doc/mirage 2>/dev/null || true)
[ -z "$left" ] || fail "the purge left: $left"
ok "apt-get purge mirage leaves nothing of it"
echo "1..$n"
