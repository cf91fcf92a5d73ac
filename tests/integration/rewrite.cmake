# libhotswap_rewrite's shipped shape: exports, soname, pkg-config file.
mirage_shell_test(rewrite_abi rewrite_abi.sh LABELS rewrite)
# `mirage rewrite` and `mirage inspect` from the shell: summaries, JSON, every error path.
mirage_shell_test(rewrite_cli rewrite_cli.sh LABELS rewrite)
# Kernel names and paths from outside reach the terminal escaped (hostile_name.co).
mirage_shell_test(rewrite_escape rewrite_escape.sh LABELS rewrite)
