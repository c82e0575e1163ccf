/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A value kept in a callee-saved register (include/distsec/disasm.h,
 * ds_site_arg_held): the register's writes that reach a load through it,
 * over the function's paths rather than back in address order, so that a
 * pointer an -O2 build keeps in r15 from its function's start to a
 * setgid() thousands of bytes on is still known for what it is.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define HELD_INSNS 20000   /* instructions of a function looked at */
#define HELD_WRITES 16     /* writes of the register followed */

static bool writes_reg(const struct dis_insn *in, unsigned r)
{
	return (in->dst.kind == L_REG && in->dst.reg == r) || (in->clobber & DIS_BIT(r));
}

struct ds_argsrc ds_site_arg_held(const struct ds_site *site, unsigned n)
{
	static const char *const none[] = { NULL };
	struct ds_argsrc out = { .kind = DS_SRC_UNKNOWN };
	const struct dis_arch *a = site->c->arch;
	const struct dis_func *f = site->f;
	/* the other lifters do not list every register an instruction writes
	 * (update forms, load-multiple), which this rule must see all of */
	if ((a->machine != EM_X86_64 && a->machine != EM_386 && a->machine != EM_AARCH64) ||
	    f->n > HELD_INSNS)
		return out;
	size_t at;
	unsigned r;
	/* every call keeps a callee-saved register as it found it: that is
	 * the ABI, which every function the compiler emits follows; a
	 * caller-saved one (or the stack pointer) may hold anything after one */
	if (!dis_arg_load(site, n, &at, &r) || r >= 64 || r == a->sp ||
	    (a->caller_saved & DIS_BIT(r)))
		return out;
	unsigned char *writes = ds_xcalloc(f->n, 1), *mark = ds_xcalloc(f->n, 1);
	size_t nwrites = 0;
	for (size_t i = 0; i < f->n; i++)
		if (writes_reg(&f->in[i], r)) {
			writes[i] = 1;
			nwrites++;
		}
	/* a path from the entry writing nothing there: the caller's value */
	bool ok = nwrites && nwrites <= HELD_WRITES &&
	          !dis_reach_stop(f, 0, none, at, NULL, writes, mark);
	struct ds_argsrc held = out;
	for (size_t i = 0; ok && i < f->n; i++) {
		if (!writes[i])
			continue;
		memset(mark, 0, f->n);
		if (!dis_reach_stop(f, i + 1, none, at, NULL, writes, mark))
			continue;   /* overwritten on every path before the load */
		struct ds_site after = { site->c, f, i + 1 };
		struct ds_argsrc v = dis_result_src(&after, (struct dis_loc){ L_REG, (uint8_t)r, 0 });
		/* each write that reaches it stores the result of the same
		 * import on the same argument: the call's pointer, kept */
		if (v.kind != DS_SRC_RESULT || !v.callee || !v.of ||
		    (held.callee && (strcmp(held.callee, v.callee) != 0 || strcmp(held.of, v.of) != 0)))
			ok = false;
		held = v;
	}
	free(writes);
	free(mark);
	if (!ok || !held.callee)
		return out;
	held.kind = DS_SRC_FIELD;
	held.value = 0;
	return held;
}
