# The mirage command line: global options, parser errors, did-you-mean, unwritable stdout.
mirage_shell_test(cli_errors cli_errors.sh LABELS launcher)
mirage_shell_test(cli_color cli_color.sh LABELS launcher)
mirage_shell_test(cli_permissions cli_permissions.sh LABELS launcher)
mirage_shell_test(exit_codes exit_codes.sh LABELS launcher)
mirage_shell_test(man_pages man_pages.sh LABELS launcher)
