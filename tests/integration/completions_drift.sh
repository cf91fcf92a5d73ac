# Every command, subcommand and flag that `mirage ... --help` lists is what bash, zsh and fish complete,
# so a table entry the generator misses (or a flag it invents) fails here.
source "$(dirname "$0")/completions_lib.sh"
comp_setup

help_commands() { # the names under "commands:" / "subcommands:" of `mirage [GROUP] --help`
	"$MIRAGE_BIN" "$@" --help | awk '/^(sub)?commands:$/ { on = 1; next } /^$/ { on = 0 } on { print $1 }'
}

help_flags() { # every spelling in `mirage PATH --help`: --x, --no-x, -c, and the global options
	"$MIRAGE_BIN" "$@" --help | awk '
		/^options:$/ { on = 1; next }
		/^$/ { on = 0 }
		on && match($0, /^  (-[A-Za-z0-9], |    )--(\[no-\])?[a-z0-9-]+/) {
			spec = substr($0, 3, RLENGTH - 2)
			if (spec ~ /^-[A-Za-z0-9],/) { print substr(spec, 1, 2); spec = substr(spec, 5) }
			else spec = substr(spec, 5)
			name = spec; sub(/^--(\[no-\])?/, "", name)
			print "--" name
			if (spec ~ /^--\[no-\]/) print "--no-" name
		}
		/^global options: / {
			line = $0; sub(/^global options: /, "", line)
			n = split(line, parts, /, |\//)
			for (i = 1; i <= n; i++) print parts[i]
		}' | sort -u
}

mapfile -t top < <(help_commands)
[ ${#top[@]} -ge 3 ] || fail "mirage --help lists too few commands: ${top[*]}"
paths=() groups=()
for c in "${top[@]}"; do
	subs=$(help_commands "$c")
	if "$MIRAGE_BIN" "$c" --help | grep -q '^subcommands:$'; then
		groups+=("$c")
		for s in $subs; do paths+=("$c $s"); done
	else
		paths+=("$c")
	fi
done
ok "help lists ${#top[@]} commands and ${#paths[@]} leaf commands"

{
	echo "mirage "
	for g in "${groups[@]}"; do echo "mirage $g "; done
	for p in "${paths[@]}"; do
		echo "mirage $p --"
		echo "mirage $p -"
	done
} >"$COMP/lines"

# Read each --help once: $COMP/flags.N holds the flags of paths[N].
for i in "${!paths[@]}"; do
	read -ra path <<<"${paths[i]}"
	help_flags "${path[@]}" >"$COMP/flags.$i"
done

for sh in bash zsh fish; do
	command -v "$sh" >/dev/null || { skip "$sh is not installed"; continue; }
	comp_run "$sh" <"$COMP/lines"
	expect_exact "$sh" "mirage " "${top[@]}"
	for g in "${groups[@]}"; do
		mapfile -t subs < <(help_commands "$g")
		expect_exact "$sh" "mirage $g " "${subs[@]}"
	done
	for i in "${!paths[@]}"; do
		p=${paths[i]}
		mapfile -t flags <"$COMP/flags.$i"
		mapfile -t longs < <(printf '%s\n' "${flags[@]}" | grep -- '^--')
		mapfile -t shorts < <(printf '%s\n' "${flags[@]}" | grep -v -- '^--')
		# `--` itself is offered where it starts the workload; it is not a flag.
		got=$(cands "$sh" "mirage $p --" | grep -vx -- '--')
		want=$(printf '%s\n' "${longs[@]}" | sort -u)
		if [ "$got" != "$want" ]; then
			echo "# help: $(echo $want)"
			echo "# $sh:  $(echo $got)"
			diff <(echo "$want") <(echo "$got") | sed 's/^/# /'
			fail "$sh: the long flags of 'mirage $p' differ from its --help"
		fi
		ok "$sh: 'mirage $p --<TAB>' is exactly the ${#longs[@]} long flags of --help"
		[ ${#shorts[@]} -eq 0 ] || expect_cands "$sh" "mirage $p -" "${shorts[@]}"
	done
done
done_testing
