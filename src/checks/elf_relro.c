/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-relro (rpm-chksec): RELRO makes the GOT and other relocated data
 * read-only after start-up.  No PT_GNU_RELRO → none; PT_GNU_RELRO without
 * BIND_NOW (DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW) → partial; with it → full.
 * BIND_NOW alone is not RELRO.  A static-pie relocates itself at start-up
 * (RELRO present = full); a static non-PIE program has no loader-resolved
 * GOT and is not judged (elf-static reports it).
 */
#include <elf.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

/* docs/DESIGN.md, "Severity policy": none is always an error; partial is a warning for
 * important and network-local programs and fine for the rest. */
static enum ds_severity severity_for(enum ds_class c, enum ds_elf_relro r)
{
	if (r == DS_RELRO_NONE)
		return DS_SEV_ERROR;
	if (r == DS_RELRO_PARTIAL && (ds_class_important(c) || c == DS_CLASS_NETWORK_LOCAL))
		return DS_SEV_WARNING;
	return DS_SEV_PASS;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || (v->type != ET_EXEC && v->type != ET_DYN))
		return;
	if (ds_elf_link(v) == DS_LINK_STATIC) {
		/* no loader, no GOT it resolves: elf-static says what matters */
		struct ds_finding *d = ds_report(f, DS_SEV_PASS, "statically linked: RELRO does not apply");
		ds_detail_str(d, "relro", "not applicable");
		/* the segment and flag, for rpm-chksec's verdict (src/core/verdict.c) */
		ds_detail_bool(d, "gnu_relro", ds_elf_relro(v) != DS_RELRO_NONE);
		ds_detail_bool(d, "bind_now", v->bind_now);
		ds_detail_str(d, "class", ds_class_name(ds_file_class(f)));
		return;
	}
	enum ds_elf_relro r = ds_elf_relro(v);
	enum ds_class cls = ds_file_class(f);
	enum ds_severity sev = severity_for(cls, r);
	struct ds_finding *d;
	if (r == DS_RELRO_NONE)
		d = ds_report(f, sev, "no RELRO: relocated data such as the GOT stays writable");
	else if (r == DS_RELRO_PARTIAL && sev != DS_SEV_PASS)
		d = ds_report(f, sev, "partial RELRO only: a %s program should be linked with -z now",
		              ds_class_name(cls));
	else
		d = ds_report(f, DS_SEV_PASS, "%s RELRO", ds_elf_relro_name(r));
	ds_detail_str(d, "relro", ds_elf_relro_name(r));
	ds_detail_bool(d, "bind_now", v->bind_now);
	ds_detail_str(d, "class", ds_class_name(cls));
}

const struct ds_check ds_check_elf_relro = {
	.id = "elf-relro",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "executable or library without (full) RELRO (severity by program class)",
	.help = {
		.what = "Without RELRO the global offset table and other relocated data stay writable "
		  "for the whole life of the process, so a memory-corruption bug can redirect "
		  "calls by overwriting a GOT entry. Partial RELRO protects little; full RELRO "
		  "(with BIND_NOW) makes the GOT read-only after start-up.",
		.detect = "No PT_GNU_RELRO segment: none. PT_GNU_RELRO without BIND_NOW (DT_BIND_NOW, "
		  "DF_BIND_NOW or DF_1_NOW): partial. Both: full.",
		.limits = "Judges what the loader will do, not whether the program has exploitable bugs; "
		  "BIND_NOW alone is not RELRO.",
		.fix = "Link with -Wl,-z,relro,-z,now (dpkg-buildflags: hardening=+bindnow; Fedora "
		  "does it by default).",
	},
	.least = DS_SEV_WARNING,
	.severity_policy = "no RELRO: error; partial RELRO: warning for daemons, setuid/setgid/setcap, "
	  "network and network-local programs, fine for the rest",
	.cwe = 693,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "RELRO", .key = "relro", .type = DS_FACT_LEVEL,
		  .levels = (const char *const[]){ "none", "partial", "full", NULL },
		  .regression = "lost-relro", .lost = true,
		  .why = "RELRO went from full to partial or none, or from partial to none: relocated "
		         "data such as the GOT stays writable, a target for a memory-corruption bug",
		  .verdict = DS_VERDICT_RELRO },
		{ .what = "BIND_NOW", .key = "bind_now", .type = DS_FACT_BOOL,
		  .regression = "lost-bind-now", .lost = true,
		  .why = "the file no longer resolves every symbol at load time, so its GOT cannot be "
		         "made read-only after relocation (full RELRO needs BIND_NOW)",
		  .verdict = DS_VERDICT_BIND_NOW },
		{ .what = "the RELRO segment", .key = "gnu_relro", .type = DS_FACT_BOOL,
		  .verdict = DS_VERDICT_RELRO_SEGMENT },
		{ 0 },
	},
	.run = run,
};
