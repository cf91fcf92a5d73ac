/* Truthiness of environment switches and parsing of written booleans. */
#include "truthy.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const false_words[] = {"", "0", "off", "false", "no"};
static const char *const true_words[] = {"1", "on", "true", "yes"};

static int word_in(const char *v, size_t len, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(words[i]) == len && !strncasecmp(v, words[i], len))
			return 1;
	return 0;
}

static void trim(const char **v, size_t *len)
{
	while (**v == ' ' || **v == '\t')
		(*v)++;
	*len = strlen(*v);
	while (*len && ((*v)[*len - 1] == ' ' || (*v)[*len - 1] == '\t'))
		(*len)--;
}

bool env_truthy(const char *value)
{
	size_t len;
	if (!value)
		return false;
	trim(&value, &len);
	return !word_in(value, len, false_words, sizeof(false_words) / sizeof(false_words[0]));
}

bool env_flag(const char *name)
{
	return env_truthy(getenv(name));
}

int parse_bool(const char *value, bool *out)
{
	size_t len;
	if (!value)
		return -1;
	trim(&value, &len);
	if (len && word_in(value, len, false_words, sizeof(false_words) / sizeof(false_words[0]))) {
		*out = false;
		return 0;
	}
	if (word_in(value, len, true_words, sizeof(true_words) / sizeof(true_words[0]))) {
		*out = true;
		return 0;
	}
	return -1;
}
