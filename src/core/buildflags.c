/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DW_AT_producer strings (include/distsec/buildflags.h): which compiler
 * wrote a unit, and for GCC the switches it recorded, applied in order
 * as GCC applies its command line (the last of a group wins:
 * "-fstack-protector-strong ... -fno-stack-protector" has none).
 */
#include <string.h>
#include <stdio.h>

#include "distsec/buildflags.h"
#include "distsec/finding.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One switch (tok, len bytes, not NUL-terminated) into fl. */
static void apply_switch(struct ds_gcc_flags *fl, const char *tok, size_t len)
{
	char sw[64];
	if (len >= sizeof sw)
		return;   /* no switch judged here is that long (paths, -I, -D) */
	memcpy(sw, tok, len);
	sw[len] = '\0';
	static const struct { const char *name; int level; } sp[] = {
		{ "-fno-stack-protector", 0 }, { "-fstack-protector", 1 },
		{ "-fstack-protector-strong", 2 }, { "-fstack-protector-all", 3 },
		{ "-fstack-protector-explicit", -1 },
	};
	for (size_t i = 0; i < sizeof sp / sizeof *sp; i++)
		if (!strcmp(sw, sp[i].name))
			fl->stack_protector = sp[i].level;
	if (!strcmp(sw, "-fstack-clash-protection"))
		fl->stack_clash = true;
	else if (!strcmp(sw, "-fno-stack-clash-protection"))
		fl->stack_clash = false;
	else if (!strcmp(sw, "-fcf-protection") || !strcmp(sw, "-fcf-protection=full"))
		fl->cf_protection = 3;
	else if (!strcmp(sw, "-fcf-protection=branch"))
		fl->cf_protection = 1;
	else if (!strcmp(sw, "-fcf-protection=return"))
		fl->cf_protection = 2;
	else if (!strcmp(sw, "-fcf-protection=none") || !strcmp(sw, "-fno-cf-protection"))
		fl->cf_protection = 0;
	else if (!strcmp(sw, "-O"))
		fl->opt = 1;
	else if (sw[1] == 'O' && sw[2] >= '0' && sw[2] <= '9' && !sw[3])
		fl->opt = sw[2] > '3' ? 3 : sw[2] - '0';   /* GCC takes -O4 and above as -O3 */
	else if (!strcmp(sw, "-Os") || !strcmp(sw, "-Og") || !strcmp(sw, "-Oz"))
		fl->opt = sw[2];
	else if (!strcmp(sw, "-Ofast"))
		fl->opt = 'f';
}

enum ds_producer ds_producer_parse(const char *producer, struct ds_gcc_flags *fl)
{
	memset(fl, 0, sizeof *fl);
	if (!producer)
		return DS_PROD_OTHER;
	/* rustc's LLVM producer is "clang LLVM (rustc version 1.63.0)" */
	if (strstr(producer, "rustc version"))
		return DS_PROD_RUST;
	if (strstr(producer, "clang version") || starts(producer, "clang "))
		return DS_PROD_CLANG;
	if (starts(producer, "Go cmd/compile") || starts(producer, "GNU Go"))
		return DS_PROD_GO;
	if (starts(producer, "GNU AS") || starts(producer, "yasm") || starts(producer, "NASM") ||
	    starts(producer, "nasm"))
		return DS_PROD_ASM;
	if (!starts(producer, "GNU "))
		return DS_PROD_OTHER;
	/* "GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 ...": the
	 * language and version, then the switches */
	const char *p = producer;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		if (len && *p == '-') {
			fl->any_switch = true;
			apply_switch(fl, p, len);
		}
		p += len;
	}
	return DS_PROD_GCC;
}

/* The names kept are the first few in byte order, so the same debug
 * file read in another unit order (a dwz file resolved later) names the
 * same ones. */
static void gap_add(struct ds_bf_gap *g, const char *name)
{
	char n[DS_BF_NAME_MAX];
	snprintf(n, sizeof n, "%s", name ? name : "(unnamed unit)");
	g->count++;
	unsigned i = g->nnames;
	while (i > 0 && strcmp(n, g->names[i - 1]) < 0)
		i--;
	if (i == DS_BF_NAMES)
		return;
	if (g->nnames < DS_BF_NAMES)
		g->nnames++;
	memmove(g->names[i + 1], g->names[i], (size_t)(g->nnames - 1 - i) * DS_BF_NAME_MAX);
	memcpy(g->names[i], n, DS_BF_NAME_MAX);
}

void ds_buildflags_add(struct ds_buildflags *bf, const char *producer, const char *name, bool x86)
{
	struct ds_gcc_flags fl;
	bf->units++;
	switch (ds_producer_parse(producer, &fl)) {
	case DS_PROD_GCC:
		break;
	case DS_PROD_CLANG: bf->clang++; return;
	case DS_PROD_RUST: bf->rust++; return;
	case DS_PROD_GO: bf->go++; return;
	case DS_PROD_ASM: bf->assembler++; return;
	case DS_PROD_OTHER: bf->other++; return;
	}
	if (!fl.any_switch) {
		bf->unrecorded++;
		return;
	}
	bf->judged++;
	if (fl.stack_protector < 2)
		gap_add(&bf->no_canary, name);
	if (!fl.stack_clash)
		gap_add(&bf->no_stack_clash, name);
	if (x86 && fl.cf_protection != 3)
		gap_add(&bf->no_cf, name);
	if (fl.opt == 0)
		gap_add(&bf->o0, name);
}

struct ds_finding *ds_report_build_gap(struct ds_file *f, const struct ds_buildflags *bf,
                                       const struct ds_bf_gap *g, enum ds_severity sev,
                                       const char *lacking, const char *all)
{
	struct ds_finding *d;
	if (!g->count) {
		d = ds_report(f, DS_SEV_PASS, "%s (%u compile units, debug file %s)", all, bf->judged,
		              bf->debug_file);
	} else {
		char names[DS_BF_NAMES * (DS_BF_NAME_MAX + 2) + 8] = "";
		size_t used = 0;
		for (unsigned i = 0; i < g->nnames && used < sizeof names; i++)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
			                         g->names[i]);
		d = ds_report(f, sev, "%u of %u compile units %s (%s%s)", g->count, bf->judged, lacking,
		              names, g->count > g->nnames ? ", ..." : "");
		for (unsigned i = 0; i < g->nnames; i++)
			ds_detail_append(d, "first_units", g->names[i]);
	}
	ds_detail_str(d, "source", "dwarf");
	ds_detail_str(d, "debug_file", bf->debug_file);
	ds_detail_int(d, "units", bf->judged);
	ds_detail_int(d, "units_without", g->count);
	unsigned other = bf->clang + bf->rust + bf->go + bf->assembler + bf->other + bf->unrecorded;
	if (other)
		ds_detail_int(d, "units_not_judged", other);
	if (bf->capped)
		ds_detail_bool(d, "units_capped", true);
	return d;
}
