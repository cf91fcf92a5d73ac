# bash completes mirage's commands, flags, choices, gfx names, profile names, files and the run -- workload.
source "$(dirname "$0")/completions_lib.sh"
command -v bash >/dev/null || skip_all "bash is not installed"
comp_behaviour bash
