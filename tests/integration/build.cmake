# The build itself: compile flags (MIRAGE_WERROR) and sources compiled once.
mirage_shell_test(build_config build_config.sh LABELS build)
