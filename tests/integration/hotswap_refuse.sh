# mirage hotswap install refuses what it must: unsafe archives (built here with
# python3 tarfile/zipfile), incomplete trees, bad arguments; each time with the
# message, the exit code, nothing installed and nothing written outside.
source "$(dirname "$0")/hotswap_lib.sh"

make_tree "$T/src/good"
make_tree "$T/src/half" incomplete
make_tree "$T/src/nocore" nocore
mkdir -p "$T/evil" "$T/outside"

# python3 tarfile/zipfile write what we ask, including entries tar(1) would not.
# Absolute entries point into $T/outside, so a broken check cannot touch the host.
python3 - "$T/src/good" "$T/evil" "$T/outside" <<'PY' || exit 1
import gzip, io, os, sys, tarfile, zipfile
good, out, outside = sys.argv[1:4]

def tree(t):
    t.add(good, arcname="tree")

def member(name, kind=tarfile.REGTYPE, data=b"x", link=""):
    i = tarfile.TarInfo(name)
    i.type = kind
    i.linkname = link
    i.mode = 0o644
    i.size = len(data) if kind == tarfile.REGTYPE else 0
    return i, io.BytesIO(data) if kind == tarfile.REGTYPE else None

def bad(fname, *members):
    with tarfile.open(os.path.join(out, fname), "w:gz") as t:
        tree(t)
        for name, kw in members:
            t.addfile(*member(name, **kw))

bad("dotdot.tar.gz", ("../evil", {}))
bad("dotdot-deep.tar.gz", ("tree/a/../../../evil", {}))
bad("abs.tar.gz", (outside + "/abs-evil", {}))
bad("symlink-abs.tar.gz", ("tree/lib/etc", {"kind": tarfile.SYMTYPE, "link": "/etc"}))
bad("symlink-up.tar.gz", ("tree/lib/up", {"kind": tarfile.SYMTYPE, "link": "../../.."}))
bad("symlink-through.tar.gz", ("tree/d", {"kind": tarfile.SYMTYPE, "link": "lib"}),
    ("tree/d/passwd", {}))
bad("hardlink.tar.gz", ("tree/lib/passwd", {"kind": tarfile.LNKTYPE, "link": "/etc/passwd"}))
bad("device.tar.gz", ("tree/dev-null", {"kind": tarfile.CHRTYPE}))
bad("fifo.tar.gz", ("tree/fifo", {"kind": tarfile.FIFOTYPE}))
with zipfile.ZipFile(os.path.join(out, "dotdot.zip"), "w") as z:
    z.writestr("tree/lib/x", b"x")
    z.writestr("../zip-evil", b"x")
# Archive bombs against the default caps (100000 entries, 4 GiB), as raw tar headers: one
# empty file 100001 times (quick to make), and a lone 5 GiB header with no data after it,
# since the scan refuses at the header, before reading any data.
def raw(fname, data):
    with gzip.open(os.path.join(out, fname), "wb", compresslevel=1) as f:
        f.write(data)
raw("many.tar.gz", tarfile.TarInfo("tree/empty").tobuf(tarfile.USTAR_FORMAT) * 100001
    + bytes(1024))
huge = tarfile.TarInfo("tree/huge")
huge.size = 5 << 30
raw("huge.tar.gz", huge.tobuf(tarfile.USTAR_FORMAT))
PY

check_refused() { # ARCHIVE WHAT
	mirage hotswap install "$T/evil/$1"
	expect_rc 1 "install $1"
	expect_err "refusing to extract '$T/evil/$1'" "$1: stderr"
	expect_err "$2" "$1: stderr"
	expect_nothing_installed "$1"
}
check_refused dotdot.tar.gz "entry '../evil' has a '..' component"
check_refused dotdot-deep.tar.gz "entry 'tree/a/../../../evil' has a '..' component"
check_refused abs.tar.gz "entry '$T/outside/abs-evil' is an absolute path"
check_refused symlink-abs.tar.gz "entry 'tree/lib/etc' is a symlink to an absolute path"
expect_err "tar --dereference" "symlink-abs.tar.gz: the hint"
check_refused symlink-up.tar.gz "entry 'tree/lib/up' is a symlink that points outside the tree"
check_refused symlink-through.tar.gz "entry 'tree/d/passwd' lies under a symlink"
check_refused hardlink.tar.gz "entry 'tree/lib/passwd' is a hardlink to a path outside the tree"
check_refused device.tar.gz "entry 'tree/dev-null' is a device node"
check_refused fifo.tar.gz "entry 'tree/fifo' is a FIFO"
check_refused dotdot.zip "entry '../zip-evil' has a '..' component"
check_refused many.tar.gz "it has more entries than the limit of 100000"
expect_err "export HOTSWAP_HOME=DIR" "many.tar.gz: the hint"
check_refused huge.tar.gz "its headers declare more data than the limit of 4 GiB (at entry 'tree/huge')"
LEAKED=$(find "$T" -name '*evil' ! -path "$T/evil" ! -path "$T/evil/*")
[ -z "$LEAKED" ] || fail "an unsafe entry was written: $LEAKED"
[ -z "$(ls -A "$T/outside")" ] || fail "something was written to $T/outside"

# An incomplete tree (no rewriter next to the intercept).
make_tarball "$T/half.tar.gz" "$T/src/half"
mirage hotswap install "$T/half.tar.gz"
expect_rc 1 "install an incomplete tree"
expect_err "the HotSwap tree in '$T/half.tar.gz' is incomplete; nothing was installed"
expect_err "lib/libhotswap_rewrite.so"
expect_err "hint: "
expect_nothing_installed "incomplete tree"

# A native tree without the intercept's core: the shim would run workloads unemulated.
make_tarball "$T/nocore.tar.gz" "$T/src/nocore"
mirage hotswap install "$T/nocore.tar.gz"
expect_rc 1 "install a native tree without the core"
expect_err "the HotSwap tree in '$T/nocore.tar.gz' is incomplete; nothing was installed"
expect_err "it looks like a native tree"
expect_err "  - lib/libhotswap_intercept_core.so: missing"
expect_err "hint: install an archive of a complete tree: lib/libhotswap_intercept.so plus lib/libhotswap_rewrite.so and lib/libhotswap_intercept_core.so (native)"
expect_nothing_installed "native tree without the core"

# An archive that is no tree at all.
mkdir -p "$T/src/docs" && echo hi >"$T/src/docs/README"
make_tarball "$T/docs.tar.gz" "$T/src/docs"
mirage hotswap install "$T/docs.tar.gz"
expect_rc 1 "install a non-tree"
expect_err "'$T/docs.tar.gz' is not a HotSwap tree: it has no lib/libhotswap_intercept.so"
expect_nothing_installed "non-tree"

# Not an archive, an empty file, a directory, a missing file.
echo "plain text" >"$T/notes.txt"
mirage hotswap install "$T/notes.txt"
expect_rc 1 "install a text file"
expect_err "cannot read '$T/notes.txt'"
expect_nothing_installed "text file"
mirage hotswap install "$T/src/good"
expect_rc 1 "install a directory"
expect_err "'$T/src/good' is a directory"
expect_err "HOTSWAP_HOME"
mirage hotswap install "$T/none.tar.gz"
expect_rc 1 "install a missing file"
expect_err "cannot read '$T/none.tar.gz': No such file or directory"
expect_nothing_installed "missing file"

# A path that is no regular file (a device), and an archive with no entry at all.
mirage hotswap install /dev/null
expect_rc 1 "install /dev/null"
expect_err "cannot read '/dev/null': not a regular file"
expect_nothing_installed "/dev/null"
tar -czf "$T/empty.tar.gz" -T /dev/null
mirage hotswap install "$T/empty.tar.gz"
expect_rc 1 "install an empty archive"
expect_err "'$T/empty.tar.gz' is an empty archive"
expect_err "hint: a HotSwap tree archive holds lib/libhotswap_intercept.so"
expect_nothing_installed "empty archive"

# Only the intercept: discovery's "neither flavour" text, parts named without the temp dir.
mkdir -p "$T/src/bare/lib" && cp "$T/so/libhotswap_intercept.so" "$T/src/bare/lib/"
make_tarball "$T/bare.tar.gz" "$T/src/bare"
mirage hotswap install "$T/bare.tar.gz"
expect_rc 1 "install a lone intercept"
expect_err "the HotSwap tree in '$T/bare.tar.gz' is incomplete; nothing was installed"
expect_err "it looks like neither flavour: a native tree needs lib/libhotswap_rewrite.so and lib/libhotswap_intercept_core.so,"
expect_err "  - lib/libhotswap_rewrite.so: missing"
assert_not_contains "$ERR" "/.tmp-" "lone intercept: no part is named by its deleted temp path"
expect_nothing_installed "lone intercept"

# A flat archive whose file name is no valid tree name: --name is the way out.
tar -czf "$T/My Tree.tar.gz" -C "$T/src/good" .
mirage hotswap install "$T/My Tree.tar.gz"
expect_rc 1 "install a flat archive with an unusable file name"
expect_err "cannot name the tree from '$T/My Tree.tar.gz': invalid tree name 'my tree'"
expect_err "hint: pass --name NAME"
expect_nothing_installed "unusable file name"

# A data directory that cannot exist (under a regular file): install and list say where.
: >"$T/plainfile"
MIRAGE_DATA=$T/plainfile/data mirage hotswap install "$T/My Tree.tar.gz" --name x
expect_rc 1 "install with MIRAGE_DATA under a file"
expect_err "cannot create '$T/plainfile/data/hotswap': Not a directory"
expect_err "hint: set MIRAGE_DATA to a writable directory"
MIRAGE_DATA=$T/plainfile/data mirage hotswap list
expect_rc 1 "list with MIRAGE_DATA under a file"
expect_err "cannot list '$T/plainfile/data/hotswap': Not a directory"

# Usage errors (exit 2) are caught before anything is read.
mirage hotswap install "$T/none.tar.gz" --sha256 abc
expect_rc 2 "--sha256 abc"
expect_err "invalid value 'abc' for '--sha256': expected 64 hex digits"
mirage hotswap install "ftp://127.0.0.1/tree.tar.gz"
expect_rc 2 "ftp://"
expect_err "unsupported URL scheme"
mirage hotswap install "$T/none.tar.gz" --name ../x
expect_rc 2 "--name ../x"
expect_err "invalid tree name '../x'"
mirage hotswap install
expect_rc 2 "install without a source"
mirage hotswap remove a/b -f
expect_rc 2 "remove a/b"
expect_err "invalid tree name 'a/b'"

# A flat archive (no top directory, as `tar -C DIR .` makes) is named after its file,
# and a tree whose only top-level directory is lib/ keeps it.
tar -czf "$T/Flat-Tree.tar.gz" -C "$T/src/good" .
mirage hotswap install "$T/Flat-Tree.tar.gz"
expect_rc 0 "install a flat archive"
expect_out "installed HotSwap tree 'flat-tree'"
mkdir -p "$T/src/libonly" && cp -a "$T/src/good/lib" "$T/src/libonly/"
tar -czf "$T/libonly.tar.gz" -C "$T/src/libonly" lib
mirage hotswap install "$T/libonly.tar.gz"
expect_rc 0 "install a lib/-only archive"
expect_out "installed HotSwap tree 'libonly'"
[ -f "$DATA/hotswap/libonly/lib/libhotswap_intercept.so" ] || fail "lib/ was stripped"

finish
