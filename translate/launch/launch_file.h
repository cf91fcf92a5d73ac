/*
 * The launch file of `mirage emulate`: which kernel of which code object, the grid, the
 * buffers and how they start, and the kernel's explicit arguments:
 *
 *   {"code_object": "vector_add.co", "kernel": "vector_add",
 *    "grid": [1024, 1, 1], "workgroup": [256, 1, 1],           (work-items, 1 to 3 numbers)
 *    "buffers": {"a": {"size": 4096, "init": "random:7"},
 *                "out": {"size": 4096, "init": "zero", "output": "out.bin"}},
 *    "args": [{"buffer": "a"}, {"buffer": "out", "offset": 0}, {"u32": 1024}],
 *    "dynamic_lds": 0}
 *
 * Paths are relative to the launch file.  "args" are the kernel's explicit (not hidden)
 * arguments in metadata order: a buffer, a typed scalar (i8 ... u64, f16, f32, f64: a JSON
 * number, or a string for integers beyond 2^53 and for "nan"/"inf"/"-inf") or raw bytes.
 * One parser for the command and for the test references, so all of them fill the same
 * buffers from the same file.  Never prints, never exits: every error is one message naming
 * the file and the field ("launch.json: buffers.out.size: expected a positive integer"), and
 * every error is a usage-class error (the CLI exits 2).
 */
#ifndef MIRAGE_LAUNCH_FILE_H
#define MIRAGE_LAUNCH_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Limits on what a launch file may ask for; a file beyond them is refused, never truncated. */
#define LAUNCH_FILE_MAX_BYTES   (1u << 20)          /* the JSON text itself */
#define LAUNCH_MAX_BUFFER_BYTES (UINT64_C(1) << 30) /* one buffer */
#define LAUNCH_MAX_TOTAL_BYTES  (UINT64_C(1) << 31) /* all buffers together */
#define LAUNCH_MAX_BUFFERS      64
#define LAUNCH_MAX_ARGS         64
#define LAUNCH_MAX_NAME         64   /* bytes in a buffer name */
#define LAUNCH_MAX_HEX_BYTES    4096 /* one {"hex": ...} argument */
#define LAUNCH_MAX_WORKGROUP    1024 /* work-items in a workgroup (gfx1250's flat maximum) */
#define LAUNCH_MAX_DYNAMIC_LDS  (320u * 1024)       /* bytes (gfx1250 LDS per workgroup) */
#define LAUNCH_MAX_WORKITEMS    (UINT64_C(1) << 32) /* grid work-items in all dimensions */

enum launch_init {
	LAUNCH_INIT_ZERO,   /* "zero" */
	LAUNCH_INIT_FILL,   /* "fill:BYTE": every byte BYTE (0..255, decimal or 0x hex) */
	LAUNCH_INIT_RANDOM, /* "random:SEED": launch_random_fill's stream for SEED */
	LAUNCH_INIT_FILE,   /* "file:PATH": a regular file of exactly the buffer's size */
};

struct launch_buffer {
	char *name;
	uint64_t size;
	enum launch_init init;
	uint8_t fill_byte; /* LAUNCH_INIT_FILL */
	uint64_t seed;     /* LAUNCH_INIT_RANDOM */
	char *init_path;   /* LAUNCH_INIT_FILE: resolved against the launch file's dir */
	char *output;      /* "output" as written, or NULL */
	char *output_path; /* "output" resolved against the launch file's dir, or NULL */
};

/* The typed scalars of "args", in one table (launch_scalar_name/size read it). */
enum launch_scalar {
	LAUNCH_I8,
	LAUNCH_I16,
	LAUNCH_I32,
	LAUNCH_I64,
	LAUNCH_U8,
	LAUNCH_U16,
	LAUNCH_U32,
	LAUNCH_U64,
	LAUNCH_F16,
	LAUNCH_F32,
	LAUNCH_F64,
	LAUNCH_HEX, /* {"hex": "..."}: raw bytes in memory order, any size */
	LAUNCH_SCALAR_COUNT
};
const char *launch_scalar_name(enum launch_scalar t);

enum launch_arg_kind {
	LAUNCH_ARG_BUFFER, /* {"buffer": NAME, "offset"?: N} */
	LAUNCH_ARG_VALUE,  /* {"u32": 1024}, {"f32": 0.5}, {"hex": "0100"} */
};

struct launch_arg {
	enum launch_arg_kind kind;
	size_t buffer;           /* LAUNCH_ARG_BUFFER: index into launch_file.buffers */
	uint64_t offset;         /* LAUNCH_ARG_BUFFER: bytes, below the buffer's size */
	enum launch_scalar type; /* LAUNCH_ARG_VALUE */
	size_t size;             /* LAUNCH_ARG_VALUE: bytes in value */
	uint8_t *value; /* LAUNCH_ARG_VALUE: little-endian bytes, as the kernarg holds them */
};

struct launch_file {
	char *path;        /* as given to launch_file_load */
	char *code_object; /* resolved against the launch file's dir */
	char *kernel;
	uint32_t grid[3];      /* work-items per dimension (missing dimensions are 1) */
	uint32_t workgroup[3]; /* work-items per dimension (missing dimensions are 1) */
	uint32_t dynamic_lds;  /* bytes */
	struct launch_buffer *buffers;
	size_t nbuffers;
	struct launch_arg *args;
	size_t nargs;
};

/*
 * Reads and checks the launch file at path: a regular file of at most LAUNCH_FILE_MAX_BYTES
 * (a FIFO or a device is refused without reading it).  On success *out is the parsed file
 * (free with launch_file_free) and 0 is returned.  On failure *out is NULL, *err is the
 * message (caller frees) and a negative errno is returned: -EINVAL for content, -EFBIG for
 * size, or the open/read failure.
 */
int launch_file_load(const char *path, struct launch_file **out, char **err);

/* The same from text already in memory; path names the file in messages and is the base of
 * relative paths. */
int launch_file_parse(const char *text, size_t len, const char *path, struct launch_file **out,
                      char **err);

void launch_file_free(struct launch_file *lf);

/* The index of the buffer called name, or -1. */
long launch_find_buffer(const struct launch_file *lf, const char *name);

/* Work-items in the grid and in one workgroup (all dimensions). */
uint64_t launch_grid_items(const struct launch_file *lf);
uint32_t launch_workgroup_items(const struct launch_file *lf);

/*
 * Fills mem (b->size bytes) as b's "init" says.  A "file:" init must be a regular file of
 * exactly b->size bytes.  Returns 0, or a negative errno with *err naming the file and field
 * ("launch.json: buffers.a.init: 'a.bin' has 100 bytes, the buffer 4096").
 */
int launch_buffer_fill(const struct launch_file *lf, const struct launch_buffer *b, void *mem,
                       char **err);

/*
 * The "random:SEED" generator, the one every tool uses: splitmix64 (Steele, Lea, Flood 2014)
 * started at state SEED; each step adds 0x9e3779b97f4a7c15 to the state and mixes it
 * (z ^= z >> 30; z *= 0xbf58476d1ce4e5b9; z ^= z >> 27; z *= 0x94d049bb133111eb; z ^= z >> 31);
 * the buffer is the outputs' bytes in little-endian order, the last output cut to fit.
 */
void launch_random_fill(uint64_t seed, void *mem, size_t size);

/* Reads a regular file of at most max bytes (a FIFO or device is refused without blocking).
 * Returns malloc'ed bytes and sets *size, or NULL with errno (EINVAL: not a regular file,
 * EFBIG: larger than max). */
void *launch_read_regular(const char *path, size_t max, size_t *size);

#endif
