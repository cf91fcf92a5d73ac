/* The shared rule for profile and HotSwap tree names. */
#include "name_rule.h"

#include "utf8.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int name_rule_check(const char *what, const char *name, const char *lowercase_why, struct diag *err)
{
	struct strbuf q = STRBUF_INIT;
	size_t len = strlen(name);
	bool upper = false;
	int ret = -1;

	strbuf_add_quoted_name(&q, name);
	if (!len) {
		diag_set(err, "invalid %s name '': it is empty", what);
		goto out;
	}
	if (len > 128) {
		diag_set(err, "invalid %s name %s: it is longer than 128 bytes", what, q.buf);
		goto out;
	}
	if (name[0] == '.') {
		/* Also keeps '..' and the installer's own .tmp-* directories out of reach. */
		diag_set(err, "invalid %s name %s: it starts with '.'", what, q.buf);
		goto out;
	}
	for (const char *c = name; *c; c++) {
		unsigned char ch = (unsigned char)*c;
		if (ch >= 0x80 || !(isalnum(ch) || strchr("._+-", ch))) {
			/* Name the character as typed: a whole UTF-8 sequence, else the byte. */
			size_t seq = utf8_seq_len((const unsigned char *)c, 4);
			if (seq)
				diag_set(err, "invalid %s name %s: it contains '%.*s'", what, q.buf,
				         (int)seq, c);
			else if (isprint(ch))
				diag_set(err, "invalid %s name %s: it contains '%c'", what, q.buf,
				         ch);
			else
				diag_set(err, "invalid %s name %s: it contains the byte 0x%02x",
				         what, q.buf, ch);
			diag_hint(err, "names use only letters, digits and . _ + -");
			goto out;
		}
		upper = upper || isupper(ch);
	}
	if (upper) {
		char *lower = str_lower(xstrdup(name));
		diag_set(err, "invalid %s name %s: %s", what, q.buf, lowercase_why);
		diag_hint(err, "use '%.48s' instead", lower);
		free(lower);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&q);
	return ret;
}
