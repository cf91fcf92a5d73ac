/*
 * Examples per command, for `--help`, `mirage help` and the man pages (command.h's
 * cmd_examples()).  Keyed by the command's full name; integration/man_pages checks that every
 * visible command has one and that every key is a command.
 */
#include "command.h"

#include <string.h>

static const struct cmd_example examples[] = {
    {"profile create", "mirage profile create mi300 --target gfx942",
     "a profile that runs gfx1250 code on an MI300 (translated for gfx942)"},
    {"profile create", "mirage profile create a0 --target gfx1250 --stepping a0",
     "a profile for gfx1250 B0 code on an A0 board"},
    {"profile list", "mirage profile list -l", "every profile with its emulator and target"},
    {"profile show", "mirage profile show mi300", "every key of one profile, defaults marked"},
    {"profile edit", "mirage profile edit mi300 --set cache_dir=/shared/$USER/mirage-cache",
     "put the profile's translation cache on a shared file system"},
    {"profile delete", "mirage profile delete old1 old2 -f", "delete two profiles without asking"},
    {"profile export", "mirage profile export mi300 > mi300.json", "a profile as JSON"},
    {"profile import", "mirage profile import mi300.json --name mi300-copy",
     "a profile from JSON, under another name"},
    {"profile copy", "mirage profile copy mi300 mi350", "a new profile with the same keys"},
    {"profile rename", "mirage profile rename mi300 mi300x", "the same profile, a new name"},
    {"run", "mirage run -p mi300 -- ./app --size 4096",
     "run ./app with its gfx1250 code translated for the MI300"},
    {"run", "mirage run -p mi300 --dry-run -- ./app",
     "print the environment and command it would run, and what would fail"},
    {"rewrite", "mirage rewrite kernels.co -o kernels.gfx942.co --target gfx942",
     "translate a gfx1250 code object for gfx942"},
    {"rewrite", "mirage rewrite b0.co -o a0.co --target gfx1250",
     "patch gfx1250 B0 code to run on an A0 board (the default gfx1250 target is A0)"},
    {"raise", "mirage raise kernels.co --kernel vector_add -o vector_add.ll",
     "one kernel's LLVM IR, as the raiser sees it"},
    {"raise", "mirage raise kernels.co --json", "which kernels raise, and why the others do not"},
    {"emulate", "mirage emulate --init kernels.co --kernel vector_add",
     "write vector_add.launch.json from the kernel's metadata"},
    {"emulate", "mirage emulate vector_add.launch.json",
     "run the kernel on this CPU and write its output buffers"},
    {"inspect", "mirage inspect kernels.co --disasm=vector_add",
     "the ISA, kernels, descriptors and one kernel's disassembly"},
    {"inspect", "mirage inspect ./hip_app --target gfx942",
     "a HIP program's fat binary, and which kernels translate for gfx942"},
    {"doctor", "mirage doctor --profile mi300",
     "whether profile mi300 can run here, and how to fix it"},
    {"emulators", "mirage emulators", "the emulators and the targets each runs"},
    {"paths", "mirage paths", "where mirage reads and writes: config, profiles, cache, trees"},
    {"hotswap install", "mirage hotswap install ./hotswap-tree.tar.gz --sha256 HEX",
     "install a HotSwap tree from an archive, checked against its SHA-256"},
    {"hotswap list", "mirage hotswap list", "the installed HotSwap trees"},
    {"hotswap remove", "mirage hotswap remove old-tree", "remove an installed tree"},
    {"cache warm", "mirage cache warm /apps/lib --profile mi300 --shard 0/8",
     "task 0 of an 8-task job array fills the profile's cache"},
    {"cache stats", "mirage cache stats", "entries and bytes in the translation cache, by target"},
    {"cache verify", "mirage cache verify --fix", "check every entry; remove the bad ones"},
    {"cache prune", "mirage cache prune --max-size 2G --older-than 30d",
     "drop the oldest entries past 2 GiB, and those unused for 30 days"},
    {"cache clear", "mirage cache clear", "empty the translation cache"},
    {"completions", "mirage completions bash > ~/.local/share/bash-completion/completions/mirage",
     "bash completion for your user"},
    {"help", "mirage help profile create",
     "what `mirage profile create` does, its options and examples"},
    {NULL, NULL, NULL},
};

const struct cmd_example *cmd_examples(const char *full_name, size_t *n)
{
	const struct cmd_example *first = NULL;

	*n = 0;
	for (const struct cmd_example *e = examples; e->command; e++)
		if (!strcmp(e->command, full_name)) {
			if (!first)
				first = e;
			(*n)++;
		}
	return first;
}

const struct cmd_example *cmd_examples_all(void)
{
	return examples;
}
