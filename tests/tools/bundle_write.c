/*
 * bundle_write OUT ID=FILE...: writes an uncompressed offload bundle of the files with
 * codeobj/bundle.h's writer ("ID=" alone is an empty entry, as the host's is), so that
 * integration/hip_bundle can have clang-offload-bundler read what mirage writes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "read_whole.h"

int main(int argc, char **argv)
{
	struct cob_out_entry e[16];
	void *data[16] = {0};
	uint8_t *out;
	size_t n = 0, size;
	char *err = NULL;
	FILE *f;

	if (argc < 3 || argc - 2 > 16) {
		fprintf(stderr, "usage: bundle_write OUT ID=FILE... (1 to 16 entries)\n");
		return 2;
	}
	for (int i = 2; i < argc; i++, n++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "bundle_write: '%s' is not ID=FILE\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		e[n] = (struct cob_out_entry){.id = argv[i]};
		if (eq[1]) {
			int fd = open(eq + 1, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || !(data[n] = read_whole_fd(fd, &e[n].size))) {
				perror(eq + 1);
				return 1;
			}
			e[n].data = data[n];
			close(fd);
		}
	}
	if (cob_bundle_write(e, n, &out, &size, &err) < 0) {
		fprintf(stderr, "bundle_write: %s\n", err);
		return 1;
	}
	f = fopen(argv[1], "wb");
	if (!f || fwrite(out, 1, size, f) != size || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	free(out);
	for (size_t i = 0; i < n; i++)
		free(data[i]);
	return 0;
}
