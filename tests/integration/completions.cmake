# Shell completions, exercised in the real bash, zsh and fish (tests/integration/completions_lib.sh).
mirage_shell_test(completions_bash completions_bash.sh LABELS completions)
mirage_shell_test(completions_zsh completions_zsh.sh LABELS completions)
mirage_shell_test(completions_fish completions_fish.sh LABELS completions)
mirage_shell_test(completions_drift completions_drift.sh LABELS completions)
mirage_shell_test(completions_cli completions_cli.sh LABELS completions)
mirage_shell_test(completions_checked_in completions_checked_in.sh LABELS completions)
mirage_shell_test(completions_install completions_install.sh LABELS completions)
