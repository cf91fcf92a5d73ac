/* `mirage paths`: where mirage keeps config, profiles, installed trees and caches, and the tree it
 * found. */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "config_paths.h"
#include "hotswap_tree.h"

#include <stdio.h>
#include <stdlib.h>

static int paths_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	const char *keys[] = {"config", "profiles", "data", "cache", "translation_cache"};
	const char *labels[] = {"config:", "profiles:", "data:", "cache:", "translation cache:"};
	char *values[] = {mirage_config_dir(), mirage_profiles_dir(), mirage_data_dir(),
	                  mirage_cache_dir(), mirage_translation_cache_dir()};
	const size_t n = sizeof(values) / sizeof(values[0]);

	hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &tree);
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		for (size_t i = 0; i < n; i++)
			if (values[i])
				cJSON_AddStringToObject(doc, keys[i], values[i]);
			else
				cJSON_AddNullToObject(doc, keys[i]);
		cJSON_AddStringToObject(doc, "config_from", mirage_config_dir_source());
		if (tree.found) {
			cJSON *t = cJSON_AddObjectToObject(doc, "hotswap");
			cJSON_AddStringToObject(t, "root", tree.root);
			cJSON_AddStringToObject(t, "found_by", tree.found_by);
			cJSON_AddStringToObject(t, "flavour", hotswap_flavour_name(tree.flavour));
			cJSON_AddBoolToObject(t, "complete", tree.complete);
		} else {
			cJSON_AddNullToObject(doc, "hotswap");
		}
		output_json(doc);
	} else {
		for (size_t i = 0; i < n; i++)
			print_text(
			    "%-18s %s\n", labels[i],
			    values[i]
			        ? values[i]
			        : "off (neither XDG_CACHE_HOME nor HOME is an absolute path)");
		if (!tree.found)
			print_text("%-18s %s\n", "hotswap:",
			           "not found (`mirage emulators -l` lists where mirage looked)");
		else
			print_text("%-18s %s (%s, %s%s)\n", "hotswap:", tree.root, tree.found_by,
			           hotswap_flavour_name(tree.flavour),
			           tree.complete ? "" : ", incomplete: see `mirage doctor`");
	}
	for (size_t i = 0; i < n; i++)
		free(values[i]);
	hotswap_tree_release(&tree);
	return EXIT_OK;
}

const struct cmd_entry cmd_paths_entry = {
    .name = "paths",
    .summary = "show where mirage keeps config, profiles, trees and caches",
    .exec = paths_exec,
};
