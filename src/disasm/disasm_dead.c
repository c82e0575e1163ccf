/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is the function holding a call site dead code (include/distsec/disasm.h,
 * ds_site_unreached)?  A function runs only if something names an address
 * in it: a branch or call (direct, rel8 to rel32 on x86, every aarch64
 * branch form), an address computed in the code (rip-relative, absolute,
 * off the i386 GOT pointer, aarch64 adr and adrp+add), a data word (a
 * function pointer table, .init_array, a GOT slot of a non-PIE program),
 * a relocation's addend or symbol, a dynamic symbol where something can
 * call through one (exports_callable), the entry point.  Every such place
 * is looked for as a byte pattern over the whole file; a code pattern's function is
 * then decoded (on the deep walks' budget) and reaches it when one of its
 * instructions branches to, or names, an address in it.  Whatever cannot
 * be told (a pattern in no decodable function, a data word that only
 * looks like an address, a cap) makes the answer "reached", so the answer
 * errs towards keeping a finding.  The unwind tables (.eh_frame,
 * .eh_frame_hdr) name every function and run none.
 *
 * A function that names it in its code is a caller only when it runs
 * itself, so the question goes on to the callers, level by level: the
 * functions verified to name the function, then those naming them, up
 * to DEAD_DEPTH levels and DEAD_VISITS functions per query, all on the
 * first query's byte and decoding budgets.  Every one of them leads to
 * the function asked about, so one that anything else names (a data
 * word, a relocation, an export, the entry point), or one past a bound,
 * makes the answer "reached"; a function already among them adds
 * nothing (a cycle is reached only through a way in from outside it).
 * A level's functions are looked for together, in one reading of the
 * file.
 */
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define DIS_UNREACHED_QUERIES 8
#define DEAD_BYTES (64u << 20)    /* bytes read per query: over it, reached */
#define DEAD_CHUNK (64u << 10)
#define TABLE_MAX  (64u << 20)
#define DEAD_CANDS 64             /* functions decoded per query */
#define DEAD_QUERY (1u << 20)     /* bytes they may decode */
#define DEAD_DEPTH 4              /* callers asked about in a chain */
#define DEAD_VISITS 16            /* functions asked about per query */

/* One query: the functions found so far (the first is the one asked
 * about), the level being looked for, the candidates it gave. */
struct dead_walk {
	struct ds_code *c;
	size_t read;               /* bytes read, against DEAD_BYTES */
	size_t budget;             /* c->deep_decoded not to pass */
	bool reached;              /* or could not tell */
	struct dead_fn {
		uint64_t lo, hi;
	} fn[DEAD_VISITS];
	size_t nfn;
	size_t first, last;        /* the level: fn[first..last), sorted by lo */
	uint64_t lo, hi;           /* the span of the level's functions */
	uint64_t cand[DEAD_CANDS]; /* functions with a code pattern naming the level */
	size_t ncand;
	GElf_Ehdr eh;
	size_t shstrndx;
};

/* The function of the level holding address a, or NULL. */
static const struct dead_fn *level_fn(const struct dead_walk *w, uint64_t a)
{
	if (a < w->lo || a >= w->hi)
		return NULL;
	size_t lo = w->first, hi = w->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->fn[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > w->first && a < w->fn[lo - 1].hi ? &w->fn[lo - 1] : NULL;
}

static bool in_level(const struct dead_walk *w, uint64_t a)
{
	return level_fn(w, a) != NULL;
}

/* A code pattern at `at` names target: when target is in a function of
 * the level other than the one holding `at`, the function holding `at`
 * is decoded later (reach_by_code). */
static void hit(struct dead_walk *w, uint64_t at, uint64_t target)
{
	const struct dead_fn *t = level_fn(w, target);
	if (!t || (at >= t->lo && at < t->hi))
		return;
	size_t fi = dis_func_of(w->c, at);
	if (fi == (size_t)-1) {
		w->reached = true;   /* code before every known function */
		return;
	}
	uint64_t fn = w->c->starts[fi];
	for (size_t i = 0; i < w->ncand; i++)
		if (w->cand[i] == fn)
			return;
	if (w->ncand == DEAD_CANDS)
		w->reached = true;
	else
		w->cand[w->ncand++] = fn;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* x86 code at addr: a rel32 or rel8 branch, a rip-relative, absolute or
 * GOT-relative displacement naming a function of the level, from
 * outside it. */
static void code_x86(struct dead_walk *w, const unsigned char *b, size_t len, uint64_t addr)
{
	bool x64 = w->c->arch->machine == EM_X86_64;
	uint64_t mask = x64 ? UINT64_MAX : 0xffffffffu, got = w->c->gotbase;
	for (size_t i = 0; i + 4 <= len && !w->reached; i++) {
		uint64_t at = addr + i;
		uint64_t disp = (uint64_t)(int64_t)(int32_t)le32(b + i);
		hit(w, at, (at + 4 + disp) & mask);
		hit(w, at, le32(b + i));
		if (!x64 && got)
			hit(w, at, (got + disp) & mask);
		/* jmp/jcc/loop rel8: the byte after the opcode */
		if (b[i] == 0xeb || (b[i] >= 0x70 && b[i] <= 0x7f) || (b[i] >= 0xe0 && b[i] <= 0xe3))
			hit(w, at, (at + 2 + (uint64_t)(int64_t)(int8_t)b[i + 1]) & mask);
	}
}

/* The function of the level an adrp of page names (one overlapping the
 * page), or 0. */
static uint64_t level_page(const struct dead_walk *w, uint64_t page)
{
	for (size_t i = w->first; i < w->last; i++)
		if (w->fn[i].lo < page + 0x1000 && w->fn[i].hi > page)
			return w->fn[i].lo;
	return 0;
}

/* aarch64 code at addr: b, bl, b.cond, cbz/cbnz, tbz/tbnz, adr into a
 * function of the level, a word holding an address in one (a literal),
 * an adrp of one of their pages. */
static void code_a64(struct dead_walk *w, const unsigned char *b, size_t len, uint64_t addr)
{
	for (size_t i = 0; i + 4 <= len && !w->reached; i += 4) {
		uint32_t x = le32(b + i);
		uint64_t at = addr + i;
		int64_t off = 0;
		bool branch = true;
		if ((x & 0x7c000000) == 0x14000000)
			off = sext(x & 0x3ffffff, 26) * 4;
		else if ((x & 0xff000010) == 0x54000000 || (x & 0x7e000000) == 0x34000000)
			off = sext((x >> 5) & 0x7ffff, 19) * 4;
		else if ((x & 0x7e000000) == 0x36000000)
			off = sext((x >> 5) & 0x3fff, 14) * 4;
		else if ((x & 0x9f000000) == 0x10000000)
			off = sext((((x >> 5) & 0x7ffff) << 2) | ((x >> 29) & 3), 21);
		else
			branch = false;
		if (branch)
			hit(w, at, at + (uint64_t)off);
		hit(w, at, x);
		if ((x & 0x9f000000) == 0x90000000) {
			uint64_t page = (at & ~0xfffull) +
			                ((uint64_t)sext((((x >> 5) & 0x7ffff) << 2) | ((x >> 29) & 3), 21) << 12);
			uint64_t fn = level_page(w, page);
			if (fn)
				hit(w, at, fn);
		}
	}
}

/* Data: every 4-aligned word (8 bytes in an ELFCLASS64 file) naming an
 * address in a function of the level. */
static void data_words(struct dead_walk *w, const unsigned char *b, size_t len)
{
	bool wide = w->c->v->elfclass == ELFCLASS64;
	for (size_t i = 0; i + (wide ? 8 : 4) <= len && !w->reached; i += 4) {
		uint64_t word = le32(b + i);
		if (wide)
			word |= (uint64_t)le32(b + i + 4) << 32;
		w->reached = in_level(w, word);
	}
}

/* A section's bytes, chunk by chunk (overlapping by 16 so that a pattern
 * cut at a chunk's end is seen whole), through fn. */
static void each_chunk(struct dead_walk *w, const GElf_Shdr *sh, bool code)
{
	const struct ds_elfview *v = w->c->v;
	if (sh->sh_offset > v->file_size || sh->sh_size > v->file_size - sh->sh_offset) {
		w->reached = true;
		return;
	}
	unsigned char *buf = ds_xmalloc(DEAD_CHUNK + 16);
	for (uint64_t done = 0; done < sh->sh_size && !w->reached; done += DEAD_CHUNK) {
		size_t want = sh->sh_size - done < DEAD_CHUNK + 16 ? (size_t)(sh->sh_size - done)
		                                                  : DEAD_CHUNK + 16;
		w->read += want;
		if (w->read > DEAD_BYTES || !dis_read_at(w->c, sh->sh_offset + done, buf, want)) {
			w->reached = true;
			break;
		}
		if (!code)
			data_words(w, buf, want);
		else if (w->c->arch->machine == EM_AARCH64)
			code_a64(w, buf, want, sh->sh_addr + done);
		else
			code_x86(w, buf, want, sh->sh_addr + done);
	}
	free(buf);
}

/* Symbol i of the table at scn, when defined: its value. */
static bool sym_value(Elf_Scn *scn, const GElf_Shdr *sh, size_t i, uint64_t *value)
{
	Elf_Data *data = sh->sh_size <= TABLE_MAX ? elf_getdata(scn, NULL) : NULL;
	GElf_Sym s;
	if (!data || !sh->sh_entsize || i >= sh->sh_size / sh->sh_entsize || i > INT32_MAX ||
	    !gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF)
		return false;
	*value = s.st_value;
	return true;
}

/* Run-time symbol look-ups: a plugin these load binds to the program's
 * exports, and a name given to these finds one (dlsym(RTLD_DEFAULT)).
 * GLib's GModule and libltdl are dlopen/dlsym for the programs using
 * them. */
static const char *const lookups[] = {
	"dlopen", "dlmopen", "dlsym", "dlvsym",
	"g_module_open", "g_module_symbol",
	"lt_dlopen", "lt_dlopenext", "lt_dlopenadvise", "lt_dlsym",
	NULL
};

/* Can anything call a function through a dynamic symbol the file defines?
 * A shared library's exports are what other objects call: always.  A
 * program (ET_EXEC, a PIE, or PT_INTERP without a soname: libc.so.6 has an
 * interpreter to print its version, and is a library) is what the loader
 * starts, not what others link to: only a plugin it loads or a name it
 * looks up calls through its exports, so without a look-up import
 * (lookups) an export names no caller.  A library the program is linked
 * with can still call back into it by name (GtkBuilder's signal handlers,
 * found through GModule inside libgtk; a library built with undefined
 * symbols the program supplies): that is rare, and not seen from the
 * program.  Such a function is then taken for dead code, which turns a
 * finding into info with its reason, never removes it. */
static bool exports_callable(const struct ds_elfview *v)
{
	bool program = v->type == ET_EXEC || v->df1_pie || (v->has_interp && !v->has_soname);
	return !program || ds_elf_imports_any(v, lookups) != NULL;
}

/* A dynamic symbol defined in a function of the level: another object,
 * or dlsym, may call it (when exports_callable). */
static void exported(struct dead_walk *w, Elf_Scn *scn, const GElf_Shdr *sh)
{
	if (sh->sh_size > TABLE_MAX || !sh->sh_entsize) {
		w->reached = true;
		return;
	}
	uint64_t value;
	for (size_t i = 1; i < sh->sh_size / sh->sh_entsize && !w->reached; i++)
		w->reached = sym_value(scn, sh, i, &value) && in_level(w, value);
}

/* A relocation whose addend, or symbol plus addend, is in a function of
 * the level (a REL entry's addend is the word it relocates: data_words
 * sees it). */
static void relocs(struct dead_walk *w, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf *elf = w->c->v->elf;
	Elf_Data *data = sh->sh_size <= TABLE_MAX ? elf_getdata(scn, NULL) : NULL;
	Elf_Scn *symscn = sh->sh_link ? elf_getscn(elf, sh->sh_link) : NULL;
	GElf_Shdr symsh;
	if (!data || !sh->sh_entsize) {
		w->reached = true;
		return;
	}
	bool syms = symscn && gelf_getshdr(symscn, &symsh);
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n && !w->reached; i++) {
		GElf_Rela r;
		uint64_t value;
		if (!dis_rel_at(w->c, data, sh, i, &r)) {
			w->reached = true;
			break;
		}
		size_t sym = w->c->v->elfclass == ELFCLASS64 ? GELF_R_SYM(r.r_info)
		                                             : ELF32_R_SYM(r.r_info);
		w->reached = in_level(w, (uint64_t)r.r_addend) ||
		             (sym && syms && sym_value(symscn, &symsh, sym, &value) &&
		              in_level(w, value + (uint64_t)r.r_addend));
	}
}

/* Everything but code that can name a function of the level, and the
 * code patterns that may (w->cand). */
static void read_level(struct dead_walk *w)
{
	Elf *elf = w->c->v->elf;
	bool callable = exports_callable(w->c->v);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while (!w->reached && (scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh)) {
			w->reached = true;
			break;
		}
		const char *name = elf_strptr(elf, w->shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_DYNSYM && callable)
			exported(w, scn, &sh);
		else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			relocs(w, scn, &sh);
		/* a PLT stub jumps through its GOT slot, which the relocations
		 * and data words name; the symbol values of .dynsym are no
		 * data words, exported() has judged them */
		if (w->reached || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS ||
		    sh.sh_type == SHT_DYNSYM ||
		    (name && (strncmp(name, ".eh_frame", 9) == 0 || strncmp(name, ".plt", 4) == 0 ||
		              strcmp(name, ".iplt") == 0)))
			continue;
		each_chunk(w, &sh, (sh.sh_flags & SHF_EXECINSTR) != 0);
	}
}

static bool known(const struct dead_walk *w, uint64_t fn)
{
	for (size_t i = 0; i < w->nfn; i++)
		if (w->fn[i].lo == fn)
			return true;
	return false;
}

static int by_lo(const void *a, const void *b)
{
	const struct dead_fn *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The candidates that really name a function of the level (an
 * instruction branches to, or names, an address in one) are the next
 * level; one that cannot be decoded, or one past the bounds, is a way
 * in.  Candidates already found add nothing. */
static void next_level(struct dead_walk *w, unsigned depth)
{
	for (size_t k = 0; k < w->ncand && !w->reached; k++) {
		struct dis_func f;
		if (known(w, w->cand[k]))
			continue;
		if (!dis_decode_deep(w->c, w->cand[k], w->budget, (size_t)-1, &f)) {
			w->reached = true;
			break;
		}
		bool names = false;
		for (size_t i = 0; i < f.n && !names; i++) {
			const struct dis_insn *in = &f.in[i];
			bool ref = in->ref_kind == R_READ || in->ref_kind == R_WRITE || in->ref_kind == R_ADDR;
			names = (in->target && in_level(w, in->target)) || (ref && in_level(w, in->ref)) ||
			        ((in->src == S_IMM || in->src == S_ADDR) && in_level(w, (uint64_t)in->value));
		}
		free(f.in);
		if (!names)
			continue;
		if (depth == DEAD_DEPTH || w->nfn == DEAD_VISITS || f.end <= f.start ||
		    (w->eh.e_entry >= f.start && w->eh.e_entry < f.end))
			w->reached = true;
		else
			w->fn[w->nfn++] = (struct dead_fn){ f.start, f.end };
	}
	w->first = w->last;
	w->last = w->nfn;
	w->ncand = 0;
	qsort(w->fn + w->first, w->last - w->first, sizeof *w->fn, by_lo);
	w->lo = w->first < w->last ? w->fn[w->first].lo : 0;
	w->hi = 0;
	for (size_t i = w->first; i < w->last; i++)
		w->hi = w->fn[i].hi > w->hi ? w->fn[i].hi : w->hi;
}

bool ds_site_unreached(const struct ds_site *site)
{
	struct ds_code *c = site->c;
	Elf *elf = c->v->elf;
	struct dead_walk w = { .c = c,
	                       .budget = c->deep_decoded + DEAD_QUERY < DEEP_FILE
	                                         ? c->deep_decoded + DEAD_QUERY
	                                         : DEEP_FILE };
	/* the byte patterns are x86's and aarch64's: elsewhere, no answer */
	unsigned m = c->arch->machine;
	if ((m != EM_X86_64 && m != EM_386 && m != EM_AARCH64) ||
	    c->unreached_queries >= DIS_UNREACHED_QUERIES || !gelf_getehdr(elf, &w.eh) ||
	    elf_getshdrstrndx(elf, &w.shstrndx) != 0)
		return false;
	c->unreached_queries++;
	uint64_t lo = site->f->start, hi = site->f->end;
	if (hi <= lo || (w.eh.e_entry >= lo && w.eh.e_entry < hi))
		return false;
	w.fn[w.nfn++] = (struct dead_fn){ lo, hi };
	w.last = 1;
	w.lo = lo;
	w.hi = hi;
	for (unsigned depth = 0; !w.reached && w.first < w.last; depth++) {
		read_level(&w);
		if (!w.reached)
			next_level(&w, depth);
	}
	return !w.reached;
}
