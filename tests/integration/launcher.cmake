# The mirage command line: global options, parser errors, did-you-mean, unwritable stdout.
mirage_shell_test(cli_errors cli_errors.sh LABELS launcher)
