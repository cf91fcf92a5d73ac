# A file the user may not read is said as that, with no hint that misleads ("give an AMDGPU
# code object"): raise, inspect, rewrite and emulate, run as an unprivileged user (setpriv from
# util-linux when the suite runs as root, since root reads every file).
source "$(dirname "$0")/cli_lib.sh"
mkdir -p "$T/p" && chmod 755 "$T" "$T/p"
cp "$FIXTURES/hello.co" "$T/p/hello.co" && chmod 000 "$T/p/hello.co"
as_user=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip_all "no setpriv to drop root"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
unreadable() { # DESC WANT ARGS...
	local desc=$1 want=$2
	shift 2
	run "${as_user[@]}" env HOME="$T" "$MIRAGE_BIN" "$@"
	check "$desc" 1 "$want"
	grep -qi "code object\|launch file" "$ERR" && fail "$desc: a misleading hint: $(cat "$ERR")"
	ok "$desc: no misleading hint"
}
unreadable "raise" "$T/p/hello.co: Permission denied" raise "$T/p/hello.co"
unreadable "inspect" "cannot read '$T/p/hello.co': Permission denied" inspect "$T/p/hello.co"
unreadable "rewrite" "cannot read '$T/p/hello.co': Permission denied" rewrite "$T/p/hello.co" -o "$T/p/out.co"
unreadable "emulate" "$T/p/hello.co: cannot read: Permission denied" emulate "$T/p/hello.co"
done_testing
