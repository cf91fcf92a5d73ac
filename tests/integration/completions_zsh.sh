# zsh completes mirage's commands, flags, choices, gfx names, profile names, files and the run -- workload.
source "$(dirname "$0")/completions_lib.sh"
command -v zsh >/dev/null || skip_all "zsh is not installed"
comp_behaviour zsh
