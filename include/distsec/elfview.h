/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ELF view: one pass over an ELF file's headers, program headers,
 * dynamic section, dynamic symbols and notes (the scanelf shape), built
 * once per file with libelf.  Checks only look at this struct; none
 * re-parses the file.  Section contents beyond these (read-only strings)
 * are read on demand with ds_elf_strings().
 */
#ifndef DISTSEC_ELFVIEW_H
#define DISTSEC_ELFVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>

struct ds_elfview {
	Elf *elf;
	int fd;                   /* file read with pread; -1: in memory (elf_rawfile) */
	size_t file_size;
	int elfclass;             /* ELFCLASS32 / ELFCLASS64 */
	unsigned type;            /* e_type */
	unsigned machine;         /* e_machine */
	int data;                 /* EI_DATA: ELFDATA2LSB / ELFDATA2MSB */

	bool has_phdrs;
	bool has_interp, has_dynamic, has_gnu_relro, has_gnu_stack;
	bool stack_exec;          /* PT_GNU_STACK has PF_X */
	bool rwx_load;            /* a PT_LOAD segment that is W and X */
	bool exec_load;           /* a PT_LOAD segment that is X */
	bool debug_only;          /* code or .dynamic is SHT_NOBITS: a separate debug file */

	bool bind_now;            /* DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW */
	bool df1_pie, has_soname, has_debug, textrel;
	size_t needed;            /* DT_NEEDED count */
	char *rpath, *runpath;    /* copies, NULL when absent */

	char **imports;           /* undefined dynamic symbols, sorted, unique */
	size_t nimports;
	size_t defined_funcs;     /* functions the file exports (defined STT_FUNC in .dynsym) */

	bool has_property_note;   /* .note.gnu.property with an x86 feature word */
	uint32_t x86_features;    /* GNU_PROPERTY_X86_FEATURE_1_AND bits */
	unsigned char build_id[64]; /* NT_GNU_BUILD_ID, what pairs it with its debug file */
	size_t build_id_len;      /* 0: none */

	const char *skipped;      /* a section over its size cap, not read (why), else NULL */
};

/* Kinds the PIE/library decision gives (docs/DESIGN.md, "Severity policy"). */
enum ds_elf_pie { DS_ELF_NOT_PIE, DS_ELF_PIE, DS_ELF_SHLIB, DS_ELF_OTHER };
enum ds_elf_relro { DS_RELRO_NONE, DS_RELRO_PARTIAL, DS_RELRO_FULL };
/* A program without PT_INTERP loads no library: static (ET_EXEC: Go, Free
 * Pascal, gcc -static) or static-pie (ET_DYN with DF_1_PIE). */
enum ds_elf_link { DS_LINK_DYNAMIC, DS_LINK_STATIC, DS_LINK_STATIC_PIE };

/* Run before libelf opens a file of size bytes (read through fd, or at mem
 * when not NULL), which allocates for every section the header claims at
 * once: NULL when the section and program header tables fit in the file
 * and under their caps (or when it has no ELF header: libelf says what it
 * is), else why not. */
const char *ds_elf_headers_check(int fd, const unsigned char *mem, size_t size);
/* Builds the view of an Elf handle of a file_size-byte file (taking
 * ownership of the handle); fd is the file it reads (not owned), or -1
 * when the handle is over memory (elf_memory).  NULL with a reason in why when the file is
 * not a well-formed ELF we can judge. */
struct ds_elfview *ds_elfview_new(Elf *elf, int fd, size_t file_size, const char **why);
void ds_elfview_free(struct ds_elfview *v);

bool ds_elf_imports(const struct ds_elfview *v, const char *sym);
/* The first of a NULL-terminated list of names that is imported, or NULL. */
const char *ds_elf_imports_any(const struct ds_elfview *v, const char *const *syms);
enum ds_elf_pie ds_elf_pie(const struct ds_elfview *v);
/* A shared library, or a program exporting 200+ functions (an interpreter
 * or plugin host: perl, python3, GHC programs, proftpd): its calls are
 * offered to the code it loads or binds, whose choices are not in the file. */
bool ds_elf_offers_api(const struct ds_elfview *v);
enum ds_elf_relro ds_elf_relro(const struct ds_elfview *v);
const char *ds_elf_relro_name(enum ds_elf_relro r);
enum ds_elf_link ds_elf_link(const struct ds_elfview *v);

/* Calls cb for each NUL-terminated printable (C locale) string of at least
 * minlen bytes that contains the byte `must`, in the read-only data
 * sections (.rodata*: PROGBITS, SHF_ALLOC without WRITE/EXEC; the first
 * 64 MiB of them, whatever the headers claim).  Stops when
 * cb returns non-zero.  Returns 0, -1 on a read error. */
int ds_elf_strings(const struct ds_elfview *v, size_t minlen, int must,
                   int (*cb)(const char *s, size_t len, void *ctx), void *ctx);
/* The same, with the address each string is loaded at. */
typedef int (*ds_elf_string_cb)(const char *s, size_t len, uint64_t addr, void *ctx);
int ds_elf_strings_at(const struct ds_elfview *v, size_t minlen, int must,
                      ds_elf_string_cb cb, void *ctx);

#endif
