# When mirage colours its output (doctor's verdicts): --color=always and never whatever the
# terminal; auto on a terminal only, and not under NO_COLOR or TERM=dumb.  The terminal is a
# real pseudo-terminal from script(1) (util-linux).
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
command -v script >/dev/null || skip_all "no script(1) to give mirage a terminal"
esc=$(printf '\033[')

# on_tty ENV... -- ARGS...: mirage ARGS on a pseudo-terminal, with the environment ENV; its
# output lands in $OUT.
on_tty() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env -u NO_COLOR "${envs[@]}" script -qec "$(printf '%q ' "$MIRAGE_BIN" "$@")" /dev/null \
		</dev/null >"$OUT" 2>&1
}
coloured() { grep -qF "$esc" "$OUT"; }

mirage doctor --color=always
coloured || fail "--color=always colours a file"
ok "--color=always colours output that is no terminal"
mirage --color=always --json doctor
coloured && fail "--json output is coloured"
ok "--json is never coloured"
mirage doctor
coloured && fail "auto colours a file"
ok "auto leaves a file plain"

on_tty TERM=xterm -- doctor
coloured || fail "auto does not colour a terminal: $(head -c 200 "$OUT" | cat -A)"
ok "auto colours a terminal"
on_tty TERM=dumb -- doctor
coloured && fail "TERM=dumb is coloured"
ok "auto leaves TERM=dumb plain"
on_tty TERM=xterm NO_COLOR=1 -- doctor
coloured && fail "NO_COLOR is coloured"
ok "auto leaves NO_COLOR plain"
on_tty TERM=xterm -- doctor --color=never
coloured && fail "--color=never colours a terminal"
ok "--color=never leaves a terminal plain"

mirage doctor --color=sometimes
check "a bad --color" 2 "invalid value 'sometimes' for '--color'"
done_testing
