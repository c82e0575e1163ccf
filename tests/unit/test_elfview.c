/* The ELF view on fixtures built at test time with known link flags. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "harness.h"

static struct ds_elfview *view_of(const char *name)
{
	int fd = open(fixture(name), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	const char *why = NULL;
	struct ds_elfview *v = ds_elfview_new(elf_begin(fd, ELF_C_READ, NULL), fd,
	                                      (size_t)st.st_size, &why);
	assert_non_null(v);
	/* ELF_C_READ reads lazily; keep the fd for the view's lifetime. */
	return v;
}

static void test_pie_full(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("pie-full");
	assert_int_equal(ds_elf_pie(v), DS_ELF_PIE);
	assert_int_equal(ds_elf_relro(v), DS_RELRO_FULL);
	assert_true(v->has_gnu_stack);
	assert_false(v->stack_exec);
	assert_true(ds_elf_imports(v, "printf"));
	assert_false(ds_elf_imports(v, "connect"));
	ds_elfview_free(v);
}

static void test_pie_partial(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("pie-partial");
	assert_int_equal(ds_elf_pie(v), DS_ELF_PIE);
	assert_int_equal(ds_elf_relro(v), DS_RELRO_PARTIAL);
	ds_elfview_free(v);
}

static void test_nopie(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("nopie-norelro");
	assert_int_equal(v->type, ET_EXEC);
	assert_int_equal(ds_elf_pie(v), DS_ELF_NOT_PIE);
	assert_int_equal(ds_elf_relro(v), DS_RELRO_NONE);
	ds_elfview_free(v);
	v = view_of("nopie-partial");
	assert_int_equal(ds_elf_relro(v), DS_RELRO_PARTIAL);
	ds_elfview_free(v);
}

static void test_execstack(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("execstack");
	assert_true(v->has_gnu_stack);
	assert_true(v->stack_exec);
	ds_elfview_free(v);
}

static void test_shared_library(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("libfix.so");
	assert_int_equal(ds_elf_pie(v), DS_ELF_SHLIB);
	assert_int_equal(ds_elf_relro(v), DS_RELRO_PARTIAL);
	ds_elfview_free(v);
	v = view_of("libfix-norelro.so");
	assert_int_equal(ds_elf_relro(v), DS_RELRO_NONE);
	ds_elfview_free(v);
}

/* Rewrites a copy so PT_GNU_STACK becomes PT_NULL: what a toolchain that
 * never emits the header produces. */
static void test_no_gnu_stack(void **state)
{
	(void)state;
	size_t n;
	unsigned char *buf = slurp(fixture("pie-full"), &n);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	assert_true(eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) <= n);
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + eh->e_phoff) + i;
		if (ph->p_type == PT_GNU_STACK)
			ph->p_type = PT_NULL;
	}
	const char *why;
	struct ds_elfview *v = ds_elfview_new(elf_memory((char *)buf, n), -1, n, &why);
	assert_non_null(v);
	assert_false(v->has_gnu_stack);
	ds_elfview_free(v);
	free(buf);
}

/* Hostile headers: the view is refused or empty, never a crash. */
static void test_malformed(void **state)
{
	(void)state;
	size_t n;
	unsigned char *buf = slurp(fixture("pie-full"), &n);
	const char *why;
	for (size_t cut = 0; cut < 256; cut += 7) {
		struct ds_elfview *v = ds_elfview_new(elf_memory((char *)buf, cut), -1, cut, &why);
		if (v)
			assert_false(v->has_gnu_relro && v->bind_now && v->nimports > 0);
		ds_elfview_free(v);
	}
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	eh->e_phoff = 0x7fffffffffffull;
	eh->e_shoff = 0x7fffffff0000ull;
	struct ds_elfview *v = ds_elfview_new(elf_memory((char *)buf, n), -1, n, &why);
	if (v) {
		assert_false(v->has_phdrs);
		assert_int_equal(v->nimports, 0);
	}
	ds_elfview_free(v);
	free(buf);
}

/* A sparse temporary copy of buf, size bytes long (a hole after buf). */
static int sparse_copy(const unsigned char *buf, size_t n, size_t size)
{
	char path[] = "/tmp/distsec-elfview-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, n), (ssize_t)n);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	return fd;
}

/* Header claims libelf would allocate for before reading anything: refused
 * by the count, or because the table is not in the file. */
static void test_header_claims(void **state)
{
	(void)state;
	size_t n;
	unsigned char *buf = slurp(fixture("pie-full"), &n);
	assert_null(ds_elf_headers_check(-1, buf, n));
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Shdr *sh0 = (Elf64_Shdr *)(buf + eh->e_shoff);
	/* extended numbering: e_shnum 0, the count in section 0's sh_size;
	 * 16M headers fit in a 1 GiB sparse file */
	eh->e_shnum = 0;
	sh0->sh_size = 1u << 24;
	int fd = sparse_copy(buf, n, eh->e_shoff + ((size_t)1 << 30));
	assert_string_equal(ds_elf_headers_check(fd, NULL, eh->e_shoff + ((size_t)1 << 30)),
	                    "the section header table is over 262144 entries");
	close(fd);
	/* under the cap, but past the end of the file */
	sh0->sh_size = 1000;
	assert_string_equal(ds_elf_headers_check(-1, buf, n),
	                    "the section header table runs past the end of the file");
	/* the program header count of PN_XNUM is in section 0's sh_info */
	sh0->sh_size = 0;
	eh->e_shnum = 1;
	eh->e_phnum = PN_XNUM;
	sh0->sh_info = 70000;
	assert_string_equal(ds_elf_headers_check(-1, buf, n),
	                    "the program header table is over 65536 entries");
	sh0->sh_info = 60000;
	assert_string_equal(ds_elf_headers_check(-1, buf, n),
	                    "program headers are truncated or out of bounds");
	free(buf);

	/* ELF32, big-endian: section 0 right after the header */
	unsigned char be[sizeof(Elf32_Ehdr) + sizeof(Elf32_Shdr)] = { 0x7f, 'E', 'L', 'F',
	                                                             ELFCLASS32, ELFDATA2MSB, 1 };
	be[0x23] = sizeof(Elf32_Ehdr);   /* e_shoff */
	be[sizeof(Elf32_Ehdr) + 0x14] = 0x01;   /* sh_size 0x01000000 */
	assert_string_equal(ds_elf_headers_check(-1, be, sizeof be),
	                    "the section header table is over 262144 entries");
	be[sizeof(Elf32_Ehdr) + 0x14] = 0;
	be[sizeof(Elf32_Ehdr) + 0x17] = 2;   /* 2 sections: 40 bytes past the end */
	assert_string_equal(ds_elf_headers_check(-1, be, sizeof be),
	                    "the section header table runs past the end of the file");
	be[sizeof(Elf32_Ehdr) + 0x17] = 1;
	assert_null(ds_elf_headers_check(-1, be, sizeof be));
}

struct seen { size_t n; char last[64]; bool ordered; };

static int count_tmp(const char *s, size_t len, void *ctx)
{
	struct seen *st = ctx;
	if (strncmp(s, "/tmp/str-", 9) != 0 || len != strlen(s))
		return 0;
	if (st->n && strcmp(st->last, s) >= 0)
		st->ordered = false;
	snprintf(st->last, sizeof st->last, "%s", s);
	st->n++;
	return 0;
}

/* Strings straddling the reader's 64 KiB chunks come out whole, and the
 * same from a file as from memory. */
static void test_strings_chunked(void **state)
{
	(void)state;
	struct ds_elfview *v = view_of("manystrings");
	struct seen from_fd = { .ordered = true };
	assert_int_equal(ds_elf_strings(v, 6, '/', count_tmp, &from_fd), 0);
	ds_elfview_free(v);
	assert_int_equal(from_fd.n, 3000);
	assert_true(from_fd.ordered);

	size_t n;
	unsigned char *buf = slurp(fixture("manystrings"), &n);
	const char *why;
	v = ds_elfview_new(elf_memory((char *)buf, n), -1, n, &why);
	assert_non_null(v);
	struct seen from_mem = { .ordered = true };
	assert_int_equal(ds_elf_strings(v, 6, '/', count_tmp, &from_mem), 0);
	assert_int_equal(from_mem.n, 3000);
	assert_string_equal(from_mem.last, from_fd.last);
	ds_elfview_free(v);
	free(buf);
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie_full),
		cmocka_unit_test(test_pie_partial),
		cmocka_unit_test(test_nopie),
		cmocka_unit_test(test_execstack),
		cmocka_unit_test(test_shared_library),
		cmocka_unit_test(test_no_gnu_stack),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_header_claims),
		cmocka_unit_test(test_strings_chunked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
