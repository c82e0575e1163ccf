/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-static: a program without PT_INTERP carries its libraries
 * inside: a security fix in them reaches it only by a rebuild, and a
 * static non-PIE one (Go, Free Pascal, gcc -static) also loads at a fixed
 * address, out of ASLR's reach.  One info finding says so (as lintian's
 * statically-linked-binary and annocheck do); RELRO and BIND_NOW, which are
 * the dynamic loader's business, are not claimed for it (elf-relro).
 */
#include "distsec/check.h"
#include "distsec/elfview.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	enum ds_elf_link link = ds_elf_link(v);
	struct ds_finding *d;
	if (link == DS_LINK_STATIC)
		d = ds_report(f, DS_SEV_INFO, "statically linked, not PIE: loaded at a fixed address "
		              "(no ASLR), and the libraries in it are frozen at build time");
	else if (link == DS_LINK_STATIC_PIE)
		d = ds_report(f, DS_SEV_INFO, "statically linked (static-pie): the libraries in it are "
		              "frozen at build time, fixed only by a rebuild");
	else
		return;
	ds_detail_bool(d, "static_pie", link == DS_LINK_STATIC_PIE);
	ds_detail_bool(d, "dynamic_section", v->has_dynamic);
}

const struct ds_check ds_check_elf_static = {
	.id = "elf-static",
	.severity = DS_SEV_INFO,
	.applies = DS_ON_ELF,
	.summary = "statically linked program: libraries frozen at build time, no ASLR unless static-pie",
	.help = {
		.what = "A statically linked program carries its libraries inside: a security fix in "
		  "them reaches it only by a rebuild; a static non-PIE one also loads at a fixed "
		  "address, out of ASLR's reach.",
		.detect = "An executable without PT_INTERP; static-pie when it is ET_DYN.",
		.limits = "Some static programs are meant to be (rescue shells, Go tools); RELRO and "
		  "BIND_NOW are not claimed for them (elf-relro).",
		.fix = "Link dynamically where the distribution allows it; otherwise build with "
		  "-static-pie and rebuild whenever an embedded library gets a fix.",
	},
	.cwe = 1104,
	.precision = "very-high",
	.run = run,
};
