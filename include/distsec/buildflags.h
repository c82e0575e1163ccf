/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a program was compiled, from the compiler's own record: the
 * DW_AT_producer of every compile unit of its separate debug file (GCC's
 * -grecord-gcc-switches, on by default), read with libdw.  The core pairs
 * a program with its debug file by build-id (src/debugfiles.c); checks
 * ask through ds_file_buildflags (file.h) and never learn where the debug
 * file came from beyond the name it gives.
 */
#ifndef DISTSEC_BUILDFLAGS_H
#define DISTSEC_BUILDFLAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "finding.h"

/* Unit names kept per gap: enough for a maintainer to find the build
 * rule that dropped the flag. */
#define DS_BF_NAMES 3
#define DS_BF_NAME_MAX 128

/* Units judged by C flags that lack one protection. */
struct ds_bf_gap {
	unsigned count;
	unsigned nnames;
	char names[DS_BF_NAMES][DS_BF_NAME_MAX];
};

struct ds_buildflags {
	char debug_file[256];   /* where the record was read (a path, or
	                         * "PACKAGE:/usr/lib/debug/.build-id/xx/....debug") */
	unsigned units;         /* compile units read */
	unsigned judged;        /* GCC units with their switches recorded */
	unsigned clang, rust, go, assembler, other; /* recognised, not judged by C flags */
	unsigned unrecorded;    /* GCC units without switches (-gno-record-gcc-switches) */
	bool capped;            /* the unit cap was reached: the rest not read */
	struct ds_bf_gap no_canary;      /* neither -fstack-protector-strong nor -all */
	struct ds_bf_gap no_stack_clash; /* no -fstack-clash-protection */
	struct ds_bf_gap no_cf;          /* -fcf-protection not full (x86 only) */
	struct ds_bf_gap o0;             /* built at -O0 (no -O, or -O0 last) */
};

/* The options of one GCC producer string, applied in order as GCC does
 * (the last of -fstack-protector*, -fno-stack-protector wins). */
struct ds_gcc_flags {
	int stack_protector;    /* 0 none, 1 -fstack-protector, 2 -strong, 3 -all,
	                         * -1 -explicit (only marked functions) */
	bool stack_clash;
	int cf_protection;      /* bits: 1 branch, 2 return (full = 3) */
	int opt;                /* -O level: 0..3; 's', 'g', 'z' for -Os, -Og, -Oz; 'f' -Ofast */
	bool any_switch;        /* a switch was recorded at all */
};

enum ds_producer {
	DS_PROD_GCC,            /* GNU C/C++/Fortran/..., GNU GIMPLE (LTO) */
	DS_PROD_CLANG,
	DS_PROD_RUST,
	DS_PROD_GO,
	DS_PROD_ASM,            /* GNU AS, yasm, nasm */
	DS_PROD_OTHER,
};

/* Which compiler wrote the producer string; for GCC, its switches in fl. */
enum ds_producer ds_producer_parse(const char *producer, struct ds_gcc_flags *fl);
/* Counts one unit (name may be NULL) of the given producer into bf;
 * x86 says whether -fcf-protection is judged. */
void ds_buildflags_add(struct ds_buildflags *bf, const char *producer, const char *name, bool x86);

/* For the checks judging one gap: a pass when no judged unit lacks the
 * flag ("all ...", the message), else sev with "N of M compile units
 * LACKING (the first names in byte order)"; details source "dwarf", debug_file, units,
 * units_without, first_units, units_not_judged (Clang, Rust, Go,
 * assembler, unrecorded switches). */
struct ds_file;
struct ds_finding *ds_report_build_gap(struct ds_file *f, const struct ds_buildflags *bf,
                                       const struct ds_bf_gap *g, enum ds_severity sev,
                                       const char *lacking, const char *all);

#endif
