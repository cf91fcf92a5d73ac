# The build itself: compile flags (MIRAGE_WERROR) and sources compiled once.
mirage_shell_test(build_config build_config.sh LABELS build)
# The repository's docs stand on their own: no citation of notes kept elsewhere, no dead docs/ link.
mirage_shell_test(docs_refs docs_refs.sh LABELS lint)
mirage_shell_test(docs_prose docs_prose.sh LABELS lint)
# The docs' variable tables match common/hotswap_contract.h.
mirage_shell_test(contract_docs contract_docs.sh LABELS lint)
# Shape rules a grep can hold: descriptor fields by name (codeobj/kd.h), not by offset.
mirage_shell_test(code_shape code_shape.sh LABELS lint)
