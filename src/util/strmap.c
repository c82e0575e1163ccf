/* SPDX-License-Identifier: GPL-2.0-or-later */
/* String-keyed hash map: open addressing, linear probing, FNV-1a. */
#include <stdlib.h>
#include <string.h>

#include "distsec/util.h"

struct slot {
	const char *key;
	uintptr_t val;
	uint64_t hash;
};

struct ds_strmap {
	struct slot *slots;
	size_t cap, used;     /* cap is a power of two */
	char **arena;         /* key storage blocks */
	size_t narena, arena_cap, arena_left;
	char *arena_pos;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct ds_strmap *ds_strmap_new(void)
{
	struct ds_strmap *m = ds_xcalloc(1, sizeof *m);
	m->cap = 64;
	m->slots = ds_xcalloc(m->cap, sizeof *m->slots);
	return m;
}

void ds_strmap_free(struct ds_strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->narena; i++)
		free(m->arena[i]);
	free(m->arena);
	free(m->slots);
	free(m);
}

static const char *arena_copy(struct ds_strmap *m, const char *key)
{
	size_t len = strlen(key) + 1;
	if (len > m->arena_left) {
		size_t block = len > 65536 ? len : 65536;
		char *b = ds_xmalloc(block);
		ds_push(m->arena, m->narena, m->arena_cap, b);
		m->arena_pos = b;
		m->arena_left = block;
	}
	char *p = m->arena_pos;
	memcpy(p, key, len);
	m->arena_pos += len;
	m->arena_left -= len;
	return p;
}

static struct slot *lookup(const struct ds_strmap *m, const char *key, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && strcmp(s->key, key) == 0))
			return s;
	}
}

static void grow(struct ds_strmap *m)
{
	struct slot *old = m->slots;
	size_t oldcap = m->cap;
	m->cap *= 2;
	m->slots = ds_xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key)
			*lookup(m, old[i].key, old[i].hash) = old[i];
	free(old);
}

uintptr_t *ds_strmap_put(struct ds_strmap *m, const char *key)
{
	uint64_t h = hash_str(key);
	struct slot *s = lookup(m, key, h);
	if (s->key)
		return &s->val;
	if ((m->used + 1) * 4 > m->cap * 3) {
		grow(m);
		s = lookup(m, key, h);
	}
	s->key = arena_copy(m, key);
	s->hash = h;
	s->val = 0;
	m->used++;
	return &s->val;
}

const char *ds_strmap_key(struct ds_strmap *m, const char *key)
{
	uint64_t h = hash_str(key);
	struct slot *s = lookup(m, key, h);
	if (!s->key) {
		ds_strmap_put(m, key);
		s = lookup(m, key, h);
	}
	return s->key;
}

uintptr_t *ds_strmap_get(const struct ds_strmap *m, const char *key)
{
	struct slot *s = lookup(m, key, hash_str(key));
	return s->key ? &s->val : NULL;
}

size_t ds_strmap_size(const struct ds_strmap *m)
{
	return m->used;
}

const char *ds_strmap_next(const struct ds_strmap *m, size_t *pos, uintptr_t *val)
{
	for (; *pos < m->cap; (*pos)++) {
		const struct slot *s = &m->slots[*pos];
		if (s->key) {
			(*pos)++;
			if (val)
				*val = s->val;
			return s->key;
		}
	}
	return NULL;
}
