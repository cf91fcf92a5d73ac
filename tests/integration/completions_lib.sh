# Helpers for the completion tests: generate the scripts with the real mirage, then ask the real
# bash, zsh and fish what they complete for a command line (the cursor at its end).
#
#   comp_setup                     scripts in $COMP/, mirage on PATH, profiles alpha and beta, files
#   comp_run SHELL < lines         completes every line in one shell process; results in $COMP/SHELL.out
#   cands SHELL LINE               the candidates for LINE, one per line, sorted, without duplicates
#   expect_cands SHELL LINE WORD...     every WORD is a candidate
#   expect_no_cands SHELL LINE WORD...  no WORD is a candidate
#   expect_exact SHELL LINE WORD...     the candidates are exactly the WORDs
source "$TEST_LIB"

: "${MIRAGE_BIN:?MIRAGE_BIN must point at the mirage binary}"
COMP=$TEST_TMP/comp
# The scripts run `mirage __complete` by the name typed, as a user's shell would.
export PATH="$(dirname "$MIRAGE_BIN"):$PATH"
export NO_COLOR=1 MIRAGE_SYSFS_ROOT=$TEST_TMP/no-sysfs

comp_setup() {
	mkdir -p "$COMP/zfpath" "$TEST_TMP/files/sub dir" "$TEST_TMP/files/subdir"
	: >"$TEST_TMP/files/data.json"
	"$MIRAGE_BIN" completions bash >"$COMP/mirage.bash" || fail "mirage completions bash"
	"$MIRAGE_BIN" completions zsh >"$COMP/zfpath/_mirage" || fail "mirage completions zsh"
	"$MIRAGE_BIN" completions fish >"$COMP/mirage.fish" || fail "mirage completions fish"
	# Two installed HotSwap trees (directories are what the installer leaves; a dot-named one
	# is its temp), in the test's own data dir.
	mkdir -p "$XDG_DATA_HOME/mirage/hotswap/rocm-a" "$XDG_DATA_HOME/mirage/hotswap/rocm-b" \
		"$XDG_DATA_HOME/mirage/hotswap/.tmp-x"
	# Two stored profiles, made by the real mirage in the test's own config dir.
	for p in alpha beta; do
		"$MIRAGE_BIN" profile create "$p" --emulator native >/dev/null 2>&1 ||
			fail "mirage profile create $p"
	done
}

# bash: the line split as readline does with the default COMP_WORDBREAKS ("=" and ":" are words
# of their own), COMP_* set as bash sets them, then the function `complete -p mirage` names.
_comp_bash() {
	cat >"$COMP/drive.bash" <<'EOF'
source /usr/share/bash-completion/bash_completion
source "$COMP/mirage.bash"
func=$(complete -p mirage) && func=${func#*-F } && func=${func%% *}
while IFS= read -r line; do
	COMP_WORDS=()
	read -ra toks <<<"$line"
	for tok in "${toks[@]}"; do
		while [[ $tok =~ ^([^=:]*)([=:])(.*)$ ]]; do
			[[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			tok=${BASH_REMATCH[3]}
		done
		[[ -n $tok ]] && COMP_WORDS+=("$tok")
	done
	[[ $line == *' ' ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	"$func" mirage "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	printf '== %s\n' "$line"
	((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
done
EOF
	COMP=$COMP bash --norc --noprofile "$COMP/drive.bash"
}

# zsh: a real interactive zsh on a pty (zpty) with compinit; each line is typed and TAB pressed.
# compadd is wrapped to print what it adds (after zsh's own matching) and then add it, so tag
# fallbacks behave as in a real session; -O/-A/-D calls only compute and are passed through.
_comp_zsh() {
	cat >"$COMP/drive.zsh" <<'EOF'
zmodload zsh/zpty || exit 2
local out line
zpty z zsh -f -i
zpty -w z "PROMPT= RPROMPT= PS2=; fpath=(${(q)COMP}/zfpath \$fpath); autoload -Uz compinit; compinit -u -d ${(q)COMP}/zcompdump"
zpty -w z 'zstyle ":completion:*" insert-tab false; unsetopt beep; LISTMAX=100000'
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a __m; builtin compadd -A __m "$@"; local x; for x in $__m; do print -r -- "<M>$IPREFIX$x"; done; builtin compadd "$@"; }'
zpty -w z '_capture() { zle complete-word; print -r -- "<END>"; zle kill-whole-line; }; zle -N _capture; bindkey "^I" _capture'
zpty -w z "print -r -- '<READY>'"
while zpty -r z out; do [[ $out == '<READY>'* ]] && break; done
while IFS= read -r line; do
	print -r -- "== $line"
	zpty -w -n z "$line"$'\t'
	while zpty -r z out; do
		out=${out%$'\r'*}
		out=${out%$'\n'}
		[[ $out == *'<END>'* ]] && break
		[[ $out == *'<M>'* ]] && print -r -- "${out#*<M>}"
	done
done
zpty -d z
EOF
	COMP=$COMP zsh -f "$COMP/drive.zsh"
}

# fish: `complete -C` asks fish's own completion engine, with the script sourced.
_comp_fish() {
	cat >"$COMP/drive.fish" <<'EOF'
source $COMP/mirage.fish
while read -l line
	echo "== $line"
	complete -C "$line" | string replace -r '\t.*' ''
end
exit 0
EOF
	COMP=$COMP fish --no-config "$COMP/drive.fish"
}

comp_run() {
	local shell=$1
	"_comp_$shell" >"$COMP/$shell.out" 2>"$COMP/$shell.err" ||
		fail "$shell exited $? while completing: $(head -5 "$COMP/$shell.err")"
}

cands() {
	awk -v want="== $2" '
		$0 == want { on = 1; next }
		/^== / { on = 0 }
		on && $0 != "" { print }' "$COMP/$1.out" | sort -u
}

_show() {
	echo "# $1 completes '$2' to:"
	cands "$1" "$2" | sed 's/^/#   /' | head -60
}

expect_cands() {
	local shell=$1 line=$2 got w
	shift 2
	got=$(cands "$shell" "$line")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || {
			_show "$shell" "$line"
			fail "$shell: '$line<TAB>' does not offer '$w'"
		}
	done
	ok "$shell: '$line<TAB>' offers $*"
}

expect_no_cands() {
	local shell=$1 line=$2 got w
	shift 2
	got=$(cands "$shell" "$line")
	for w in "$@"; do
		if grep -qxF -- "$w" <<<"$got"; then
			_show "$shell" "$line"
			fail "$shell: '$line<TAB>' offers '$w'"
		fi
	done
	ok "$shell: '$line<TAB>' does not offer $*"
}

expect_exact() {
	local shell=$1 line=$2 got want
	shift 2
	got=$(cands "$shell" "$line")
	want=$(printf '%s\n' "$@" | sort -u)
	if [ "$got" != "$want" ]; then
		_show "$shell" "$line"
		fail "$shell: '$line<TAB>' should offer exactly: $*"
	fi
	ok "$shell: '$line<TAB>' offers exactly $*"
}

# The behaviour every shell must show, on the same command lines.
comp_behaviour() {
	local sh=$1 F=$TEST_TMP/files eq=
	comp_setup
	# Each line is completed once; the checks below read the results.
	cat >"$COMP/lines" <<-LINES
		mirage pro
		mirage 
		mirage __
		mirage profile 
		mirage profile cr
		mirage profile create x --
		mirage profile create x --no-
		mirage run -
		mirage profile create x --policy 
		mirage profile create x --emulator 
		mirage profile create x --stepping=
		mirage profile create x --target 
		mirage profile create x --target=gfx9
		mirage profile create x --source-target 
		mirage profile create x --source-target gfx1250:32 --pol
		mirage profile show 
		mirage profile delete -f 
		mirage profile show alpha 
		mirage run --profile 
		mirage run -p b
		mirage run --profile=a
		mirage profile export alpha -o $F/da
		mirage profile import $F/
		mirage profile create x --cache-dir $F/
		mirage run -p alpha --workdir $F/s
		mirage run -p alpha --cl
		mirage run -p alpha -- ech
		mirage run -p alpha -- ls $F/da
		mirage run -p alpha -- mirage pro
		mirage completions 
		mirage hotswap remove 
		mirage profile edit alpha --set ta
		mirage emulate $F/data.json --schedule 
	LINES
	comp_run "$sh" <"$COMP/lines"

	# Commands and subcommands.
	expect_exact "$sh" "mirage pro" profile
	expect_cands "$sh" "mirage " profile run completions
	expect_no_cands "$sh" "mirage " __complete
	expect_no_cands "$sh" "mirage __" __complete
	expect_cands "$sh" "mirage profile " create list show edit delete export import
	expect_exact "$sh" "mirage profile cr" create

	# Flags, with --no- forms of negatable ones and short flags.
	expect_cands "$sh" "mirage profile create x --" --emulator --source-target --target --policy \
		--strict --no-strict --entry-trampolines --no-entry-trampolines --stepping --cache-dir \
		--env --description --json --verbose --help
	expect_exact "$sh" "mirage profile create x --no-" --no-strict --no-all-kernels --no-entry-trampolines
	expect_cands "$sh" "mirage run -" -p -e -C -n -v -h

	# Choices, backends and the gfx table.
	expect_exact "$sh" "mirage profile create x --policy " none env native_build triton compile full
	expect_exact "$sh" "mirage profile create x --emulator " hotswap native
	# Where the value shares the word with its flag, bash completes only the part after '='
	# (a word break); zsh and fish show the whole word.
	[ "$sh" = bash ] || eq=--stepping=
	expect_exact "$sh" "mirage profile create x --stepping=" "${eq}auto" "${eq}a0" "${eq}b0"
	expect_exact "$sh" "mirage profile create x --target " auto gfx942 gfx950 gfx1250 gfx1251
	[ "$sh" = bash ] || eq=--target=
	expect_exact "$sh" "mirage profile create x --target=gfx9" "${eq}gfx942" "${eq}gfx950"
	expect_cands "$sh" "mirage profile create x --source-target " gfx900 gfx90a gfx942 gfx1100 gfx1250
	expect_no_cands "$sh" "mirage profile create x --source-target " auto
	expect_exact "$sh" "mirage profile create x --source-target gfx1250:32 --pol" --policy

	# Installed tree names, profile keys for --set, emulate's schedules.
	expect_exact "$sh" "mirage hotswap remove " rocm-a rocm-b
	expect_exact "$sh" "mirage profile edit alpha --set ta" target=
	expect_exact "$sh" "mirage emulate $F/data.json --schedule " deterministic shuffle:

	# Profile names from the store, for positionals and --profile.
	expect_exact "$sh" "mirage profile show " alpha beta
	expect_exact "$sh" "mirage profile delete -f " alpha beta
	expect_no_cands "$sh" "mirage profile show alpha " alpha beta
	expect_exact "$sh" "mirage run --profile " alpha beta
	expect_exact "$sh" "mirage run -p b" beta
	[ "$sh" = bash ] || eq=--profile=
	expect_exact "$sh" "mirage run --profile=a" "${eq}alpha"

	# Files and directories.  zsh shows the last path component, bash and fish the whole path.
	# Directories: bash leaves the '/' to readline, fish shows it.
	local dir=$F/ sub=$F/subdir
	[ "$sh" = zsh ] && dir= sub=subdir
	[ "$sh" = fish ] && sub=$F/subdir/
	expect_exact "$sh" "mirage profile export alpha -o $F/da" "${dir}data.json"
	expect_cands "$sh" "mirage profile import $F/" "${dir}data.json"
	expect_cands "$sh" "mirage profile create x --cache-dir $F/" "$sub"
	expect_no_cands "$sh" "mirage profile create x --cache-dir $F/" "${dir}data.json"
	expect_cands "$sh" "mirage run -p alpha --workdir $F/s" "$sub"

	# run: flags before `--`, the workload's own command line after it.
	expect_exact "$sh" "mirage run -p alpha --cl" --clear-env
	expect_cands "$sh" "mirage run -p alpha -- ech" echo
	expect_no_cands "$sh" "mirage run -p alpha -- ech" --env
	expect_exact "$sh" "mirage run -p alpha -- ls $F/da" "${dir}data.json"
	expect_exact "$sh" "mirage run -p alpha -- mirage pro" profile

	expect_exact "$sh" "mirage completions " bash zsh fish
	done_testing
}
