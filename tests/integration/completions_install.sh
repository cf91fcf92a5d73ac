# `cmake --install` puts the scripts where each shell's loader finds them, and each shell then loads them on its own.
source "$(dirname "$0")/completions_lib.sh"
: "${MIRAGE_BUILD:?}"
[ -f "$MIRAGE_BUILD/completions/cmake_install.cmake" ] || skip_all "no completions install rules in $MIRAGE_BUILD"
[ -f "$MIRAGE_BUILD/completions/mirage.bash" ] || skip_all "completions target not built"
comp_setup
P=$TEST_TMP/prefix
run_capture cmake --install "$MIRAGE_BUILD/completions" --prefix "$P"
assert_eq "$RUN_STATUS" 0 "cmake --install of the completions"
bashdir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null)
bashdir=${bashdir#"$(pkg-config --variable=prefix bash-completion 2>/dev/null)/"}
bashdir=${bashdir:-share/bash-completion/completions}
[ -f "$P/$bashdir/mirage" ] || fail "no $P/$bashdir/mirage"
ok "bash: $bashdir/mirage"
[ -f "$P/share/zsh/site-functions/_mirage" ] || fail "no zsh site-functions/_mirage"
ok "zsh: share/zsh/site-functions/_mirage"
[ -f "$P/share/fish/vendor_completions.d/mirage.fish" ] || fail "no fish vendor_completions.d/mirage.fish"
ok "fish: share/fish/vendor_completions.d/mirage.fish"

# bash-completion's on-demand loader finds completions/<command> under XDG_DATA_DIRS.
XDG_DATA_DIRS=$P/share bash --norc --noprofile -c '
	source /usr/share/bash-completion/bash_completion
	_completion_loader mirage
	complete -p mirage' >"$TEST_TMP/bash.out" 2>&1
assert_contains "$TEST_TMP/bash.out" "-F _mirage" "bash-completion loads the installed script on demand"

# zsh autoloads _mirage from fpath; the #compdef line binds it to mirage.
if command -v zsh >/dev/null; then
	zsh -f -c "fpath=($P/share/zsh/site-functions \$fpath); autoload -Uz compinit; compinit -u -d $TEST_TMP/zdump; print -r -- \$_comps[mirage]" >"$TEST_TMP/zsh.out" 2>&1
	assert_eq "$(cat "$TEST_TMP/zsh.out")" "_mirage" "zsh binds the installed _mirage to mirage"
	# Autoloaded (not sourced), the file must still complete on first use.
	cp "$P/share/zsh/site-functions/_mirage" "$COMP/zfpath/_mirage"
	echo "mirage pro" | comp_run zsh
	expect_exact zsh "mirage pro" profile
fi

# fish reads vendor_completions.d under XDG_DATA_DIRS when mirage is first completed.
if command -v fish >/dev/null; then
	# Not --no-config: fish's own share/config.fish is what adds the vendor directories.
	(cd "$TEST_TMP" && XDG_DATA_DIRS=$P/share fish -c 'complete -C "mirage pro"') >"$TEST_TMP/fish.out" 2>&1
	assert_eq "$(cut -f1 "$TEST_TMP/fish.out")" "profile" "fish loads the installed script on demand"
fi
done_testing
