# What mirage hotswap install prints never carries a credential or a raw terminal escape:
# the userinfo of a URL (user:token@) is redacted on stderr and in --json, archive entry
# names with control characters are shown escaped, and a full disk during extraction names
# the file, the errno and the fix (a 1 MiB tmpfs; root only).
source "$(dirname "$0")/hotswap_lib.sh"

SECRET=s3cret-T0KEN
make_tree "$T/src/tree-a"
mkdir -p "$T/www"
make_tarball "$T/www/tree-a.tar.gz" "$T/src/tree-a"
start_http "$T/www"
BAD=$(printf '%064d' 0)
ESC=$(printf '\033')

# no_secret DESC: neither stream of the last run holds the token.
no_secret() {
	assert_not_contains "$ERR" "$SECRET" "$1: stderr has no credential"
	assert_not_contains "$OUT" "$SECRET" "$1: stdout has no credential"
}
# no_escape DESC: stderr holds no raw ESC or BEL byte.
no_escape() {
	case $ERR in
	*"$ESC"* | *$'\a'*) fail "$1: stderr holds a raw control character: $(printf '%q' "$ERR")" ;;
	*) ok "$1: stderr holds no raw control character" ;;
	esac
}

# A 404 and a checksum mismatch, as text and as --json: the URL is shown as http://***@host.
SHOWN=http://***@127.0.0.1:$PORT
mirage hotswap install "http://alice:$SECRET@127.0.0.1:$PORT/missing.tar.gz"
expect_rc 1 "404 with userinfo"
expect_err "cannot download '$SHOWN/missing.tar.gz': the server answered HTTP 404"
no_secret "404 with userinfo"
mirage --json hotswap install "http://alice:$SECRET@127.0.0.1:$PORT/missing.tar.gz"
expect_rc 1 "404 with userinfo, --json"
expect_err "\"error\":\"cannot download '$SHOWN/missing.tar.gz'"
no_secret "404 with userinfo, --json"
mirage hotswap install "http://$SECRET@127.0.0.1:$PORT/tree-a.tar.gz" --sha256 "$BAD"
expect_rc 1 "checksum mismatch with a token as the user"
expect_err "checksum mismatch for '$SHOWN/tree-a.tar.gz'"
no_secret "checksum mismatch with a token as the user"
# A password holding '@' and ':' is redacted up to the last '@'.
mirage hotswap install "http://bob:pa@ss:$SECRET@127.0.0.1:1/x.tar.gz"
expect_rc 1 "a refused connection with userinfo"
expect_err "cannot download 'http://***@127.0.0.1:1/x.tar.gz'"
no_secret "a refused connection with userinfo"
# An unsupported scheme is a usage error, redacted too.
mirage hotswap install "ftp://carol:$SECRET@127.0.0.1/x.tar.gz"
expect_rc 2 "ftp:// with userinfo"
expect_err "cannot install from 'ftp://***@127.0.0.1/x.tar.gz': unsupported URL scheme"
no_secret "ftp:// with userinfo"
# Success under --json: the document and stderr name no credential either.
mirage --json hotswap install "http://alice:$SECRET@127.0.0.1:$PORT/tree-a.tar.gz"
expect_rc 0 "install with userinfo, --json"
expect_out '"tree-a"'
no_secret "install with userinfo, --json"
mirage hotswap remove tree-a -f

# Entry names with terminal escapes (a title change, a screen clear, a C1 CSI, a newline).
python3 - "$T/src/tree-a" "$T/evil" <<'PY' || exit 1
import io, os, sys, tarfile
good, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
def fifo(name):
    i = tarfile.TarInfo(name)
    i.type = tarfile.FIFOTYPE
    return i
with tarfile.open(os.path.join(out, "title.tar.gz"), "w:gz") as t:
    t.add(good, arcname="tree")
    t.addfile(fifo("tree/\x1b]0;pwned\x07\x1b[2J\u009b31m\nmirage: all good"))
# A complete tree whose top directory has an escape: it cannot name the tree.
with tarfile.open(os.path.join(out, "topdir.tar.gz"), "w:gz") as t:
    t.add(good, arcname="\x1b[31mred")
# No tree at all under such a top directory.
with tarfile.open(os.path.join(out, "notree.tar.gz"), "w:gz") as t:
    i = tarfile.TarInfo("\x1b[31mdocs/README")
    i.size = 2
    t.addfile(i, io.BytesIO(b"hi"))
PY
mirage hotswap install "$T/evil/title.tar.gz"
expect_rc 1 "an entry name with escapes"
expect_err "entry 'tree/\\x1b]0;pwned\\x07\\x1b[2J\\xc2\\x9b31m\\nmirage: all good' is a FIFO"
no_escape "an entry name with escapes"
mirage hotswap install "$T/evil/topdir.tar.gz"
expect_rc 1 "a top directory with escapes"
expect_err "cannot name the tree from '$T/evil/topdir.tar.gz': invalid tree name '\\x1b[31mred'"
no_escape "a top directory with escapes"
mirage hotswap install "$T/evil/notree.tar.gz"
expect_rc 1 "no tree under a top directory with escapes"
expect_err "(inside its top directory '\\x1b[31mdocs/')"
no_escape "no tree under a top directory with escapes"
expect_nothing_installed "after the escapes"
# A directory someone planted in the data directory: `hotswap list` shows its name escaped.
mkdir -p "$DATA/hotswap/${ESC}]0;pwned"$'\a'
mirage hotswap list
expect_rc 0 "list with a planted name"
expect_out "\\x1b]0;pwned\\x07"
case $OUT in
*"$ESC"* | *$'\a'*) fail "list: stdout holds a raw control character" ;;
*) ok "list: stdout holds no raw control character" ;;
esac
rmdir "$DATA/hotswap/${ESC}]0;pwned"$'\a'

# A full disk while unpacking: the file, the errno, where to make room; nothing left behind.
if [ "$(id -u)" != 0 ]; then
	skip "not root: cannot mount a small tmpfs for the ENOSPC test"
elif ! mkdir -p "$T/small" || ! mount -t tmpfs -o size=1m tmpfs "$T/small" 2>/dev/null; then
	skip "cannot mount a tmpfs (no CAP_SYS_ADMIN here): no ENOSPC test"
else
	# Unmounted below, or by the trap when a check fails first.
	trap 'umount "$T/small" 2>/dev/null; _hotswap_cleanup' EXIT
	head -c 3000000 /dev/zero >"$T/src/tree-a/runtime/zeros"
	make_tarball "$T/zeros.tar.gz" "$T/src/tree-a"
	MIRAGE_DATA=$T/small/data mirage hotswap install "$T/zeros.tar.gz"
	expect_rc 1 "a full disk while unpacking"
	expect_err "cannot extract 'tree-a/runtime/zeros' from '$T/zeros.tar.gz': "
	expect_err ": No space left on device"
	expect_err "hint: nothing was installed; free some space where HotSwap trees are installed (\`mirage paths\` shows the data directory), or set MIRAGE_DATA"
	assert_eq "$(ls -A "$T/small/data/hotswap")" "" "a full disk: nothing installed, no temp files left"
	umount "$T/small"
fi

finish
