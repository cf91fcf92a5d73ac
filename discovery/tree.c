/* Searches for a HotSwap tree in docs/discovery.md's order, remembering every probed location. */
#include "hotswap_tree.h"

#include "config_paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *nonempty_env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Collapses "." and ".." lexically (only for paths built from the canonical exe dir). */
static char *normalize_path(const char *path)
{
	struct strvec parts = STRVEC_INIT;
	struct strvec out = STRVEC_INIT;
	strvec_split(&parts, path, "/");
	for (size_t i = 0; i < parts.nr; i++) {
		if (!strcmp(parts.v[i], "."))
			continue;
		if (!strcmp(parts.v[i], "..")) {
			if (out.nr)
				strvec_remove(&out, out.nr - 1);
			continue;
		}
		strvec_push(&out, parts.v[i]);
	}
	char *joined = strvec_join(&out, "/");
	char *result = xstrfmt("%s%s", path[0] == '/' ? "/" : "", joined);
	free(joined);
	strvec_clear(&parts);
	strvec_clear(&out);
	return result;
}

/*
 * A user's path (HOTSWAP_HOME, MIRAGE_DATA) is only made absolute, never
 * collapsed: "link/.." means what the file system says, not what the text says.
 */
static char *absolute_path(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char *cwd = getcwd(NULL, 0);
	char *joined = xstrfmt("%s/%s", cwd ? cwd : "", path);
	free(cwd);
	return joined;
}

static bool is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* What a HOTSWAP_HOME root that holds no intercept lacks, in words; caller frees. */
static char *home_missing(const char *root)
{
	char *lib = xstrfmt("%s/" HOTSWAP_TREE_LIB_DIR, root);
	char *intercept = xstrfmt("%s/" HOTSWAP_INTERCEPT_LIB, lib);
	char *inside = xstrfmt("%s/" HOTSWAP_INTERCEPT_LIB, root);
	char *parent = xstrdup(root);
	char *slash = strrchr(parent, '/');
	struct stat st;
	char *what;

	if (slash)
		*(slash == parent ? slash + 1 : slash) = '\0';
	if (stat(root, &st))
		what = xstrfmt(errno == ENOENT ? "no such directory" : "cannot look at it (%s)",
		               strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		what = xstrdup("it is not a directory");
	else if (is_file(inside))
		/* The commonest slip: the tree's lib/ instead of its root. */
		what = xstrfmt("it is a tree's " HOTSWAP_TREE_LIB_DIR
		               "/ directory, not its root: the root is '%s'",
		               parent);
	else if (!is_dir(lib))
		what = xstrdup("no " HOTSWAP_TREE_LIB_DIR "/ directory in it");
	else if (!lstat(intercept, &st))
		what = xstrdup(HOTSWAP_INTERCEPT_PATH " is not a regular file");
	else
		what = xstrdup("no " HOTSWAP_INTERCEPT_PATH " in it");
	free(lib);
	free(intercept);
	free(inside);
	free(parent);
	return what;
}

/* Records a probe of <root>/lib/libhotswap_intercept.so; returns true when it is the hit. */
static bool probe(struct hotswap_tree *tree, const char *root, char *reason)
{
	char *abs_root = absolute_path(root);
	struct hotswap_probe *p;

	tree->probes = xrealloc(tree->probes, (tree->nprobes + 1) * sizeof(*tree->probes));
	p = &tree->probes[tree->nprobes++];
	p->path = xstrfmt("%s/" HOTSWAP_INTERCEPT_PATH, abs_root);
	p->reason = reason;
	p->exists = is_file(p->path);
	free(abs_root);
	return p->exists;
}

char *hotswap_trees_dir(void)
{
	char *data = mirage_data_dir();
	char *dir = xstrfmt("%s/hotswap", data);
	free(data);
	return dir;
}

int hotswap_installed_names(const char *dir, struct strvec *names)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		struct stat st;
		char *path;
		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			strvec_push(names, de->d_name);
		free(path);
	}
	closedir(d);
	strvec_sort(names, 0);
	return 0;
}

/* Trees installed by `mirage hotswap install`, in sorted order so the pick is deterministic. */
static bool probe_installed(struct hotswap_tree *tree)
{
	struct strvec names = STRVEC_INIT;
	char *dir = hotswap_trees_dir();
	/* Name the variable that decided it. */
	const char *from = mirage_data_dir_source();
	const char *shown = !strcmp(from, MIRAGE_ENV_DATA)   ? "$" MIRAGE_ENV_DATA "/hotswap/*"
	                    : !strcmp(from, "XDG_DATA_HOME") ? "$XDG_DATA_HOME/mirage/hotswap/*"
	                                                     : "~/.local/share/mirage/hotswap/*";
	bool hit = false;

	/* An unreadable directory is as good as an empty one here: the probe below names it. */
	hotswap_installed_names(dir, &names);
	for (size_t i = 0; i < names.nr && !hit; i++) {
		char *root = xstrfmt("%s/%s", dir, names.v[i]);
		hit = probe(tree, root, xstrfmt("installed tree, %s", shown));
		free(root);
	}
	if (!names.nr) {
		/* Nothing installed: still name the place, so the message shows where installs go.
		 */
		char *root = xstrfmt("%s/*", dir);
		probe(tree, root, xstrfmt("installed trees, %s", shown));
		free(root);
	}
	strvec_clear(&names);
	free(dir);
	return hit;
}

static char *self_exe_path(const char *given)
{
	if (given) {
		char *abs = absolute_path(given);
		char *norm = normalize_path(abs);
		free(abs);
		return norm;
	}
	char *exe = realpath("/proc/self/exe", NULL);
	return exe ? exe : xstrdup("/proc/self/exe");
}

/* exe_dir is canonical (from /proc/self/exe), so collapsing ".." lexically is exact. */
static char *exe_relative(const char *exe_dir, const char *rel)
{
	char *joined = xstrfmt("%s/%s", exe_dir, rel);
	char *norm = normalize_path(joined);
	free(joined);
	return norm;
}

/* The locations searched when HOTSWAP_HOME is not set, in order; true at the first hit. */
static bool probe_unpinned(struct hotswap_tree *tree, const char *exe_dir)
{
	static const struct {
		const char *rel, *reason;
	} exe_relative_roots[] = {
	    {"../../build/hotswap", "in-tree build, <mirage dir>/../../build/hotswap"},
	    {"../hotswap", "build tree, <mirage dir>/../hotswap"},
	    {"../lib/mirage/hotswap", "install prefix, <prefix>/lib/mirage/hotswap"},
	};

	for (size_t i = 0; i < sizeof(exe_relative_roots) / sizeof(exe_relative_roots[0]); i++) {
		char *root = exe_relative(exe_dir, exe_relative_roots[i].rel);
		bool hit = probe(tree, root, xstrdup(exe_relative_roots[i].reason));
		free(root);
		if (hit)
			return true;
	}
	return probe_installed(tree);
}

int hotswap_discover(const struct discover_opts *opts, struct hotswap_tree *out)
{
	char *exe = self_exe_path(opts ? opts->self_exe : NULL);
	char *slash = strrchr(exe, '/');
	char *exe_dir = slash ? xstrndup(exe, (size_t)(slash - exe)) : xstrdup(".");
	const char *home = nonempty_env(HOTSWAP_ENV_HOME);
	bool hit;

	hotswap_tree_release(out);
	if (home) {
		/* Set means meant: no tree found later in the order may stand in for it. */
		out->pinned = true;
		hit = probe(out, home, xstrdup(HOTSWAP_ENV_HOME));
		if (!hit) {
			char *root = absolute_path(home);
			out->home_missing = home_missing(root);
			free(root);
		}
	} else {
		hit = probe_unpinned(out, exe_dir);
	}

	free(exe);
	free(exe_dir);
	if (!hit)
		return -1;

	const struct hotswap_probe *win = &out->probes[out->nprobes - 1];
	char *root = xstrndup(win->path, strlen(win->path) - strlen("/" HOTSWAP_INTERCEPT_PATH));
	int ret = hotswap_check_root(root, out);
	out->found_by = win->reason;
	free(root);
	return ret;
}

void hotswap_tree_release(struct hotswap_tree *tree)
{
	for (size_t i = 0; i < tree->nprobes; i++) {
		free(tree->probes[i].path);
		free(tree->probes[i].reason);
	}
	for (size_t i = 0; i < tree->nparts; i++) {
		free(tree->parts[i].path);
		free(tree->parts[i].detail);
	}
	free(tree->probes);
	free(tree->parts);
	free(tree->home_missing);
	free(tree->root);
	free(tree->lib_dir);
	strvec_clear(&tree->warnings);
	*tree = (struct hotswap_tree)HOTSWAP_TREE_INIT;
}
