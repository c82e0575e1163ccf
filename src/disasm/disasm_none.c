/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without capstone: no decoder, the checks judge by imports. */
#include "distsec/disasm.h"

struct ds_code *ds_code_open(const struct ds_elfview *v, const char **why)
{
	(void)v;
	*why = "built without capstone";
	return NULL;
}

void ds_code_free(struct ds_code *c) { (void)c; }
void ds_code_rewind(struct ds_code *c) { (void)c; }
bool ds_code_capped(const struct ds_code *c) { (void)c; return true; }

int ds_code_each_call_ref(struct ds_code *c, const char *const *names,
                          const struct ds_range *refs, size_t nrefs, ds_site_cb cb, void *ctx)
{
	(void)c; (void)names; (void)refs; (void)nrefs; (void)cb; (void)ctx;
	return -1;
}

int ds_code_each_call(struct ds_code *c, const char *const *names, ds_site_cb cb, void *ctx)
{
	return ds_code_each_call_ref(c, names, NULL, 0, cb, ctx);
}

int ds_code_each_call_to(struct ds_code *c, uint64_t target, ds_site_cb cb, void *ctx)
{
	(void)c; (void)target; (void)cb; (void)ctx;
	return -1;
}

int ds_code_each_store(struct ds_code *c, uint64_t addr, unsigned size, ds_site_cb cb, void *ctx)
{
	(void)c; (void)addr; (void)size; (void)cb; (void)ctx;
	return -1;
}

const char *ds_site_callee(const struct ds_site *s) { (void)s; return NULL; }
uint64_t ds_site_addr(const struct ds_site *s) { (void)s; return 0; }
uint64_t ds_site_function(const struct ds_site *s) { (void)s; return 0; }

const char *ds_site_calls_after(const struct ds_site *s, const char *const *names)
{
	(void)s; (void)names;
	return NULL;
}

const char *ds_site_calls_after_unless(const struct ds_site *s, const char *const *names,
                                       const char *const *barrier)
{
	(void)s; (void)names; (void)barrier;
	return NULL;
}

bool ds_site_arg_from_caller(const struct ds_site *s, unsigned n)
{
	(void)s; (void)n;
	return false;
}

struct ds_argsrc ds_site_arg_held(const struct ds_site *s, unsigned n)
{
	(void)s; (void)n;
	return (struct ds_argsrc){ .kind = DS_SRC_UNKNOWN };
}

bool ds_site_arg_slot(const struct ds_site *site, unsigned n, struct ds_slot *slot)
{
	(void)site; (void)n; (void)slot;
	return false;
}

bool ds_site_slot_passed(const struct ds_site *site, const struct ds_slot *s, uint64_t except,
                         bool (*harmless)(const struct ds_site *call, unsigned n, void *ctx),
                         void *ctx)
{
	(void)site; (void)s; (void)except; (void)harmless; (void)ctx;
	return true;
}

const char *ds_site_arg_returned(const struct ds_site *s, unsigned n)
{
	(void)s; (void)n;
	return NULL;
}

const char *ds_site_calls_before(const struct ds_site *s, const char *const *names)
{
	(void)s; (void)names;
	return NULL;
}

struct ds_argsrc ds_site_arg(const struct ds_site *s, unsigned n)
{
	(void)s; (void)n;
	return (struct ds_argsrc){ .kind = DS_SRC_UNKNOWN, .value = 0, .callee = NULL };
}

const char *ds_site_calls_after_deep(const struct ds_site *s, const char *const *names,
                                     unsigned depth, uint64_t *via)
{
	(void)s; (void)names; (void)depth; (void)via;
	return NULL;
}

const char *ds_site_calls_before_deep(const struct ds_site *s, const char *const *names,
                                      unsigned depth, uint64_t *via)
{
	(void)s; (void)names; (void)depth; (void)via;
	return NULL;
}

bool ds_site_callers_all(const struct ds_site *s, ds_caller_pred pred, void *ctx)
{
	(void)s; (void)pred; (void)ctx;
	return false;
}

struct ds_argsrc ds_site_stored(const struct ds_site *s)
{
	(void)s;
	return (struct ds_argsrc){ .kind = DS_SRC_UNKNOWN, .value = 0, .callee = NULL };
}

bool ds_site_unreached(const struct ds_site *s)
{
	(void)s;
	return false;
}

int ds_site_each_call_after(const struct ds_site *s, const char *const *names, ds_site_cb cb,
                            void *ctx)
{
	(void)s; (void)names; (void)cb; (void)ctx;
	return -1;
}

bool ds_site_in_main(const struct ds_site *s)
{
	(void)s;
	return false;
}

bool ds_site_const_dead(const struct ds_site *s)
{
	(void)s;
	return false;
}

bool ds_site_callers_const_dead(const struct ds_site *s)
{
	(void)s;
	return false;
}

int ds_site_member_stores(const struct ds_site *s, unsigned n, unsigned size, ds_site_cb cb,
                          void *ctx)
{
	(void)s, (void)n, (void)size, (void)cb, (void)ctx;
	return -1;
}

bool ds_site_not_root(const struct ds_site *s, const char *const *names)
{
	(void)s; (void)names;
	return false;
}

const char *ds_site_contra_id(const struct ds_site *s)
{
	(void)s;
	return NULL;
}

bool ds_site_main_first(const struct ds_site *s, const char *const *names,
                        const char *const *changes, unsigned depth)
{
	(void)s; (void)names; (void)changes; (void)depth;
	return false;
}

bool ds_site_only_after_success(const struct ds_site *s, uint64_t from, uint64_t to,
                                const char *const *names, ds_caller_pred same, void *ctx)
{
	(void)s; (void)from; (void)to; (void)names; (void)same; (void)ctx;
	return false;
}

bool ds_site_path(const struct ds_site *s, uint64_t from, uint64_t to)
{
	(void)s; (void)from; (void)to;
	return true;
}
