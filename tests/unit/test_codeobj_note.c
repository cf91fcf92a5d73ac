/* libmirage_codeobj's walk over note records (note.h): padding by section alignment, the
 * record layout the rewriter's writer shares, malformed records reported, not skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "note.h"

/* The note walk: padding by section alignment, and malformed records reported, not skipped. */
static void test_note_iter(void **state)
{
	/*
	 * "GNU" type 5 and "AMDGPU" type 32 laid out as LLVM reads an 8-aligned
	 * section (header and name padded together to 8, then the desc), then 5
	 * stray bytes.
	 */
	static const uint8_t buf[61] = {
	    4,   0,   0,   0,   4,   0,   0, 0, 5,  0, 0, 0,    /* namesz, descsz, type */
	    'G', 'N', 'U', 0,                                   /* name: 12 + 4 is aligned */
	    'a', 'b', 'c', 'd', 0,   0,   0, 0,                 /* desc, padded to 8 */
	    7,   0,   0,   0,   8,   0,   0, 0, 32, 0, 0, 0,    /* namesz, descsz, type */
	    'A', 'M', 'D', 'G', 'P', 'U', 0, 0, 0,  0, 0, 0,    /* name: 12 + 7 padded to 24 */
	    1,   2,   3,   4,   5,   6,   7, 8, 9,  9, 9, 9, 9, /* desc, then 5 stray bytes */
	};
	struct cob_note_iter it;
	struct cob_note n;
	(void)state;

	assert_int_equal(cob_note_align(8), 8);
	assert_int_equal(cob_note_align(4), 4);
	assert_int_equal(cob_note_align(0), 4);
	cob_note_iter_init(&it, buf, 56, 8);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_RECORD);
	assert_int_equal(n.off, 0);
	assert_int_equal(n.size, 24);
	assert_int_equal(n.type, 5);
	assert_memory_equal(n.desc, "abcd", 4);
	assert_false(cob_note_is_amdgpu(&n, 5));
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_RECORD);
	assert_int_equal(n.off, 24);
	assert_int_equal(n.descsz, 8);
	assert_ptr_equal(n.desc, buf + 48);
	assert_true(cob_note_is_amdgpu(&n, COB_NT_AMDGPU_METADATA));
	assert_false(cob_note_is_amdgpu(&n, 0x48535750u)); /* the rewriter's "HSWP" */
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_END);

	/* Five bytes after the last record: no whole header. */
	cob_note_iter_init(&it, buf, sizeof(buf), 8);
	cob_note_next(&it, &n);
	cob_note_next(&it, &n);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_TRUNCATED);
	assert_int_equal(n.off, 56);

	/*
	 * Read with 4-byte padding, the padding after "abcd" starts the next
	 * header (namesz 0, descsz 7, type 8), and "PU" after it is a namesz far
	 * past the end.
	 */
	cob_note_iter_init(&it, buf, 56, 4);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_RECORD);
	assert_int_equal(n.size, 20);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_RECORD);
	assert_int_equal(n.off, 20);
	assert_int_equal(n.type, 8);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_OVERRUN);
	assert_int_equal(n.off, 40);
	assert_int_equal(cob_note_next(&it, &n), COB_NOTE_OVERRUN); /* the walk stays on it */
	assert_int_equal(n.off, 40);
}

/* The layout rule the rewriter's note writer uses: header and name padded together. */
static void test_record_layout(void **state)
{
	(void)state;
	assert_int_equal(cob_note_desc_offset(7, 4), 20);
	assert_int_equal(cob_note_desc_offset(7, 8), 24);
	assert_int_equal(cob_note_desc_offset(4, 8), 16);
	assert_int_equal(cob_note_pad(13, 4), 16);
	assert_int_equal(cob_note_pad(13, 8), 16);
	assert_int_equal(cob_note_pad(16, 8), 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_note_iter),
	    cmocka_unit_test(test_record_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
