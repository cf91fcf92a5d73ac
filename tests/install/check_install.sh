#!/usr/bin/env bash
# What `cmake --install` leaves, tried from outside: install BUILD_DIR into a temp prefix
# given only at install time (never the configure-time CMAKE_INSTALL_PREFIX), build
# consumer.c with nothing but `pkg-config hotswap-rewrite`, let it rewrite a fixture twice,
# then run the installed mirage with no HOTSWAP_HOME and a fresh HOME: it must find the
# installed tree, not the build's.  Exits non-zero at the first failed check.
#
# usage: tests/install/check_install.sh BUILD_DIR     (scripts/test.sh runs it)
set -euo pipefail

build=$(cd "${1:?usage: check_install.sh BUILD_DIR}" && pwd -P)
here=$(cd "$(dirname "$0")" && pwd -P)
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
version=$(cache CMAKE_PROJECT_VERSION)
configured=$(cache CMAKE_INSTALL_PREFIX)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mirage-install.XXXXXX")
tmp=$(cd "$tmp" && pwd -P)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
n=0
ok() { n=$((n + 1)) && echo "ok $n - $*"; }
fail() {
	echo "not ok $((n + 1)) - $*" >&2
	exit 1
}
[ "$prefix" != "$configured" ] || fail "the temp prefix is the configured one"

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
	fail "cmake --install --prefix $prefix: $(tail -5 "$tmp/install.log")"
ok "cmake --install into $prefix (configured for $configured)"

# pkg-config: the .pc file must name the prefix it was installed under.
pc=$(find "$prefix" -name hotswap-rewrite.pc -print -quit)
[ -n "$pc" ] || fail "no hotswap-rewrite.pc under $prefix"
export PKG_CONFIG_PATH=${pc%/*}
got=$(pkg-config --modversion hotswap-rewrite)
[ "$got" = "$version" ] || fail "pkg-config --modversion: '$got', want '$version'"
libdir=$(pkg-config --variable=libdir hotswap-rewrite)
includedir=$(pkg-config --variable=includedir hotswap-rewrite)
for d in "$libdir" "$includedir"; do
	[ -d "$d" ] && case $(cd "$d" && pwd -P) in "$prefix"/*) true ;; *) false ;; esac ||
		fail "pkg-config names '$d', not a directory under $prefix"
done
ok "pkg-config hotswap-rewrite $got, libdir and includedir under the install prefix"

# shellcheck disable=SC2046  # word splitting of pkg-config's output is the point
${CC:-cc} -std=c17 -Wall -Wextra -Werror -o "$tmp/consumer" "$here/consumer.c" \
	$(pkg-config --cflags --libs hotswap-rewrite) -Wl,-rpath,"$libdir" ||
	fail "cannot build consumer.c with pkg-config's flags"
lib=$(ldd "$tmp/consumer" | awk '/libhotswap_rewrite/ {print $3}')
case $lib in "$libdir"/*) ;; *) fail "consumer loads libhotswap_rewrite from '$lib', not $libdir" ;; esac
ok "consumer built with \`cc \$(pkg-config --cflags --libs hotswap-rewrite)\`, links $lib"

out=$(env -u HOTSWAP_HOME "$tmp/consumer" "$build/tests/fixtures/hello.co" "$version" 2>&1) ||
	fail "consumer: $out"
ok "consumer: $out"

# The installed mirage, as a user who installed it would run it.
mirage_env=(env -i PATH=/usr/bin:/bin HOME="$tmp/home" NO_COLOR=1 MIRAGE_SYSFS_ROOT="$tmp/no-sysfs")
mkdir -p "$tmp/home"
tree=$prefix/lib/mirage/hotswap
got=$("${mirage_env[@]}" "$prefix/bin/mirage" --version)
[ "$got" = "mirage $version" ] || fail "installed mirage --version: '$got'"
ok "installed mirage --version: $got"
paths=$("${mirage_env[@]}" "$prefix/bin/mirage" paths) || fail "installed mirage paths failed"
grep -Eq "^hotswap: +$tree \(install prefix, " <<<"$paths" ||
	fail "installed mirage paths does not show $tree:"$'\n'"$paths"
ok "installed mirage paths: the installed tree, found through the install prefix"
doctor=$("${mirage_env[@]}" "$prefix/bin/mirage" doctor) ||
	fail "installed mirage doctor failed:"$'\n'"$doctor"
grep -q "found   $tree/lib/libhotswap_intercept.so" <<<"$doctor" ||
	fail "doctor did not find $tree:"$'\n'"$doctor"
grep -q "^ok    self-test: " <<<"$doctor" || fail "doctor's self-test did not pass:"$'\n'"$doctor"
! grep -qF "$build" <<<"$paths$doctor" || fail "the installed mirage names the build tree $build"
ok "installed mirage doctor: installed tree complete, self-test passed, no build path"
echo "1..$n"
