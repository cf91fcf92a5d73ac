# fish completes mirage's commands, flags, choices, gfx names, profile names, files and the run -- workload.
source "$(dirname "$0")/completions_lib.sh"
command -v fish >/dev/null || skip_all "fish is not installed"
comp_behaviour fish
