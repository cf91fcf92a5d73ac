/* A tree's tools: can one run, and where the tree beside a library keeps it (tree_tools.h). */
#include "tree_tools.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

enum tree_tool_state tree_tool_state(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return TREE_TOOL_MISSING;
	return access(path, X_OK) ? TREE_TOOL_NOT_EXECUTABLE : TREE_TOOL_OK;
}

int tree_tool_beside(const char *lib_dir, enum hotswap_part_id tool, char *out, size_t size)
{
	/* Where cmake/StageHotswap.cmake and the install put the tree, relative to lib/mirage. */
	static const char *const trees[] = {"hotswap", "../../hotswap"};
	const struct hotswap_part_row *row = &hotswap_tree_parts[tool];

	if (row->kind != HOTSWAP_PART_TOOL)
		return -1;
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		int n = snprintf(out, size, "%s/%s/%s", lib_dir, trees[i], row->path);
		if (n >= 0 && (size_t)n < size && tree_tool_state(out) == TREE_TOOL_OK)
			return 0;
	}
	return -1;
}
