# mirage hotswap install from http://127.0.0.1 (python3 -m http.server started here):
# success with and without --sha256, a wrong checksum, an HTTP 404, a non-archive, a
# redirect to file://, a URL with no file name, a download that cannot be saved, TLS, SIGTERM.
source "$(dirname "$0")/hotswap_lib.sh"
# MIRAGE_DATA wins over XDG_DATA_HOME: installs follow it.
export MIRAGE_DATA=$T/mirage-data
DATA=$MIRAGE_DATA

make_tree "$T/src/tree-a"
mkdir -p "$T/www"
make_tarball "$T/www/tree-a.tar.gz" "$T/src/tree-a"
echo "<html>not a tree</html>" >"$T/www/page.tar.gz"
SUM=$(sha256_of "$T/www/tree-a.tar.gz")
BAD=$(printf '%064d' 0)
start_http "$T/www"
URL=http://127.0.0.1:$PORT

# Wrong checksum: refused, naming both digests; nothing installed, no temp left.
mirage hotswap install "$URL/tree-a.tar.gz" --sha256 "$BAD"
expect_rc 1 "install --sha256 wrong"
expect_err "checksum mismatch for '$URL/tree-a.tar.gz'"
expect_err "expected sha256 $BAD"
expect_err "got $SUM"
expect_nothing_installed "after a checksum mismatch"

# HTTP 404: the status and the URL are in the message.
mirage hotswap install "$URL/missing.tar.gz"
expect_rc 1 "install 404"
expect_err "cannot download '$URL/missing.tar.gz': the server answered HTTP 404"
expect_err "hint: "
expect_nothing_installed "after a 404"

# Something that is not an archive.
mirage hotswap install "$URL/page.tar.gz"
expect_rc 1 "install a non-archive"
expect_err "cannot read '$URL/page.tar.gz'"
expect_nothing_installed "after a non-archive"

# Nobody listening: a connection error, not a hang.
mirage hotswap install "http://127.0.0.1:1/tree.tar.gz"
expect_rc 1 "install from a closed port"
expect_err "cannot download 'http://127.0.0.1:1/tree.tar.gz'"

# The right checksum (upper case accepted): installed; JSON result; no meter on a non-tty.
mirage --json hotswap install "$URL/tree-a.tar.gz" --sha256 "$(echo "$SUM" | tr a-f A-F)"
expect_rc 0 "install http --sha256"
[ -z "$ERR" ] || fail "stderr is not empty under --json without a tty: $ERR"
echo "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["name"] == "tree-a" and d["sha256"] == sys.argv[1] and d["flavour"] == "native", d
' "$SUM" || fail "install --json document: $OUT"
[ -f "$DATA/hotswap/tree-a/lib/libhotswap_intercept.so" ] || fail "tree-a not in place"

# Without --sha256, under another name; the digest is still reported.
mirage hotswap install "$URL/tree-a.tar.gz?x=1" --name b
expect_rc 0 "install http --name"
expect_out "installed HotSwap tree 'b'"
expect_out "sha256 $SUM"
grep -q '"GET /tree-a.tar.gz' "$T/http.log" || fail "the server never saw the download"

# A redirect never leads from http(s) to the local disk, not even to a good tree; and a URL
# with no file name gives no tree name.  Both from a server that sends a flat tree archive
# for any path but /to-file, which it redirects to the tree above as a file:// URL.
tar -czf "$T/flat.tar.gz" -C "$T/src/tree-a" .
cat >"$T/redirect.py" <<'PY'
import http.server, sys
data = open(sys.argv[1], "rb").read()
class Redirect(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        to_file = self.path.startswith("/to-file")
        self.send_response(302 if to_file else 200)
        if to_file:
            self.send_header("Location", sys.argv[2])
        self.send_header("Content-Length", "0" if to_file else str(len(data)))
        self.end_headers()
        if not to_file:
            self.wfile.write(data)
    def log_message(self, *args):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), Redirect)
print(s.server_port, flush=True)
s.serve_forever()
PY
start_server "$T/redirect.py" "$T/flat.tar.gz" "file://$T/www/tree-a.tar.gz"
mirage hotswap install "http://127.0.0.1:$PORT/to-file.tar.gz" --name via-file
expect_rc 1 "install through a redirect to file://"
expect_err "cannot download 'http://127.0.0.1:$PORT/to-file.tar.gz': "
expect_err "hint: mirage fetches http://, https:// and file:// and follows redirects to http(s) only"
expect_nothing_installed_but "b tree-a" "after a redirect to file://"
mirage hotswap install "http://127.0.0.1:$PORT/"
expect_rc 1 "install from a URL without a file name"
expect_err "cannot name the tree from 'http://127.0.0.1:$PORT/': it has no file name"
expect_err "hint: pass --name NAME"
expect_nothing_installed_but "b tree-a" "after a URL without a file name"

# A download that cannot be saved: over a 1 KiB RLIMIT_FSIZE, with SIGXFSZ ignored so that
# write() fails with EFBIG instead of killing mirage.
(
	trap '' XFSZ
	ulimit -f 1
	exec "$MIRAGE_EXE" hotswap install "$URL/tree-a.tar.gz" --name big
) </dev/null >"$T/fsize.out" 2>"$T/fsize.err"
RC=$?
ERR=$(cat "$T/fsize.err")
expect_rc 1 "install over RLIMIT_FSIZE"
expect_err "cannot save the download of '$URL/tree-a.tar.gz' in '$DATA/hotswap': File too large"
expect_err "hint: free some space in the data directory"
expect_nothing_installed_but "b tree-a" "after a download that cannot be saved"

# TLS verification is on: an https server with a self-signed certificate is refused,
# and trusted once CURL_CA_BUNDLE names its certificate.
if command -v openssl >/dev/null; then
	openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout "$T/key.pem" -out "$T/cert.pem" \
		>/dev/null 2>&1 || fail "openssl cannot make a test certificate"
	cat >"$T/tls.py" <<'PY'
import functools, http.server, ssl, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
s = http.server.HTTPServer(("127.0.0.1", 0), handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(sys.argv[2], sys.argv[3])
s.socket = ctx.wrap_socket(s.socket, server_side=True)
print(s.server_port, flush=True)
s.serve_forever()
PY
	start_server "$T/tls.py" "$T/www" "$T/cert.pem" "$T/key.pem"
	TLS_URL=https://127.0.0.1:$PORT/tree-a.tar.gz
	mirage hotswap install "$TLS_URL" --name tls
	expect_rc 1 "install from a self-signed https server"
	expect_err "cannot download '$TLS_URL': TLS failed"
	expect_err "CURL_CA_BUNDLE"
	expect_nothing_installed_but "b tree-a" "after a TLS failure"
	CURL_CA_BUNDLE=$T/cert.pem mirage hotswap install "$TLS_URL" --name tls
	expect_rc 0 "install over https with CURL_CA_BUNDLE"
	mirage hotswap remove tls -f
else
	skip "openssl is not installed: no TLS test"
fi

# Interrupted mid-download (SIGTERM): dies of the signal, after removing its temp files.
head -c 2000000 /dev/urandom >"$T/src/tree-a/runtime/blob"
make_tarball "$T/slow.tar.gz" "$T/src/tree-a"
cat >"$T/slow.py" <<'PY'
import http.server, sys, time
data = open(sys.argv[1], "rb").read()
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            for i in range(0, len(data), 4096):
                self.wfile.write(data[i:i + 4096])
                time.sleep(0.05)
        except OSError:
            pass
    def log_message(self, *args):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), Slow)
print(s.server_port, flush=True)
s.handle_request()
PY
start_server "$T/slow.py" "$T/slow.tar.gz"
SLOW_URL=http://127.0.0.1:$PORT/slow.tar.gz
"$MIRAGE_EXE" hotswap install "$SLOW_URL" --name slow 2>"$T/slow.err" &
MPID=$!
for _ in $(seq 100); do
	[ -n "$(dot_entries)" ] && break
	sleep 0.1
done
sleep 0.3
kill -TERM "$MPID"
wait "$MPID"
RC=$?
ERR=$(cat "$T/slow.err")
expect_rc 143 "install interrupted by SIGTERM"
expect_err "mirage: installing '$SLOW_URL' interrupted; nothing was installed"
assert_not_contains "$ERR" "hint:" "the interrupted install gives no other failure's hint"
[ ! -e "$DATA/hotswap/slow" ] || fail "the interrupted install left a tree"
assert_eq "$(dot_entries)" "" "the interrupted install left no temp files"

finish
