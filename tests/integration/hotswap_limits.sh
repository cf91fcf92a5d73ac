# mirage hotswap install bounds what it fetches: a size cap (an endless body, file:///dev/zero,
# a huge announced size, a local file, an archive that unpacks to more) and a total timeout
# (a server trickling 4 bytes a second); each message names the limit and the flag that
# raises it, and nothing, not even a partial download, is left behind.  Small limits from the
# flags keep it quick; the defaults are checked where a server can announce a size.
source "$(dirname "$0")/hotswap_lib.sh"

make_tree "$T/src/tree"
make_tarball "$T/tree.tar.gz" "$T/src/tree"

cat >"$T/servers.py" <<'PY'
import http.server, socketserver, sys, time
mode = sys.argv[1]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def do_GET(self):
        self.send_response(200)
        if mode == "announce":
            self.send_header("Content-Length", str(10 << 30))  # 10 GiB, never sent
        self.end_headers()
        try:
            while True:
                if mode == "trickle":
                    self.wfile.write(b"abcd")
                    self.wfile.flush()
                    time.sleep(1)
                else:
                    self.wfile.write(bytes(65536))
        except OSError:
            pass
    def log_message(self, *args):
        pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
s = S(("127.0.0.1", 0), H)
print(s.server_port, flush=True)
s.serve_forever()
PY

# An endless body (no Content-Length): stopped at --max-size, the partial body gone.
start_server "$T/servers.py" endless
mirage hotswap install "http://127.0.0.1:$PORT/endless.tar.gz" --max-size 1M
expect_rc 1 "an endless body"
expect_err "cannot download 'http://127.0.0.1:$PORT/endless.tar.gz': it is larger than the limit of 1 MiB"
expect_err "hint: a HotSwap tree archive is at most a few hundred MB; if this one is bigger, raise the limit with --max-size SIZE (e.g. 8G)"
expect_nothing_installed "after an endless body"

# A size announced over the default limit (4 GiB): refused before the first byte.
start_server "$T/servers.py" announce
mirage hotswap install "http://127.0.0.1:$PORT/huge.tar.gz"
expect_rc 1 "an announced 10 GiB"
expect_err "cannot download 'http://127.0.0.1:$PORT/huge.tar.gz': the server announces a size over the limit of 4 GiB"
expect_err "raise the limit with --max-size SIZE"
expect_nothing_installed "after an announced 10 GiB"

# file:///dev/zero never ends either.
mirage hotswap install file:///dev/zero --max-size 512K --name zero
expect_rc 1 "file:///dev/zero"
expect_err "cannot download 'file:///dev/zero': it is larger than the limit of 512 KiB"
expect_nothing_installed "after file:///dev/zero"

# 4 bytes a second passes curl's stall check only if it is 1 byte/s; the total timeout ends it.
start_server "$T/servers.py" trickle
START=$SECONDS
mirage hotswap install "http://127.0.0.1:$PORT/slow.tar.gz" --timeout 2
expect_rc 1 "a trickling server"
expect_err "cannot download 'http://127.0.0.1:$PORT/slow.tar.gz': it took longer than the limit of 2 seconds"
expect_err "hint: the server or the network is too slow; raise the limit with --timeout SECONDS"
[ $((SECONDS - START)) -le 10 ] || fail "the 2-second timeout took $((SECONDS - START)) s"
expect_nothing_installed "after a trickling server"

# A local archive is held to the same size limit, before anything is copied.
mirage hotswap install "$T/tree.tar.gz" --max-size 1K
expect_rc 1 "a local archive over --max-size"
expect_err "cannot install '$T/tree.tar.gz': it is larger than the limit of 1 KiB"
expect_err "raise the limit with --max-size SIZE"
expect_nothing_installed "after a local archive over --max-size"

# An archive that unpacks to more than --max-size (a small archive of zeros).
head -c 2000000 /dev/zero >"$T/src/tree/runtime/zeros"
make_tarball "$T/zeros.tar.gz" "$T/src/tree"
rm "$T/src/tree/runtime/zeros"
mirage hotswap install "$T/zeros.tar.gz" --max-size 64K
expect_rc 1 "an archive unpacking to more than --max-size"
expect_err "refusing to extract '$T/zeros.tar.gz': its headers declare more data than the limit of 64 KiB"
expect_err "raise the limit with --max-size SIZE"
expect_nothing_installed "after an archive unpacking to more than --max-size"

# Raised limits install as usual; sizes take K/M/G/T with or without iB.
mirage hotswap install "$T/zeros.tar.gz" --max-size 8GiB --timeout 7200 --name big
expect_rc 0 "--max-size 8GiB --timeout 7200"
mirage hotswap install "$T/tree.tar.gz" --max-size 100000 --name bytes
expect_rc 0 "--max-size 100000"

# Bad values are usage errors, caught before anything is read.
for bad in 0 abc 1X -5 4GB2 99999999999999999999; do
	mirage hotswap install "$T/tree.tar.gz" --max-size "$bad"
	expect_rc 2 "--max-size $bad"
	expect_err "invalid value '$bad' for '--max-size': expected a positive size" "--max-size $bad"
done
expect_err "hint: a number of bytes, or one with K, M, G or T (1024-based): e.g. 8G, 500M"
for bad in 0 abc 1.5 -1 " 5"; do
	mirage hotswap install "$T/tree.tar.gz" --timeout "$bad"
	expect_rc 2 "--timeout '$bad'"
	expect_err "invalid value '$bad' for '--timeout': expected a positive number of seconds" "--timeout '$bad'"
done
expect_nothing_installed_but "big bytes" "after the usage errors"

finish
