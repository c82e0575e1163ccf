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
 * itself: the same question is asked of it in turn (unreached), up to
 * DEAD_DEPTH functions deep and DEAD_VISITS functions per query, all on
 * the first query's byte and decoding budgets.  A function already being
 * asked about further up is no caller: a cycle is reached only through a
 * way in from outside it, which the question asked higher up finds.  Data
 * words, relocations, exports and the entry point always count, and so
 * does a reference over a bound.
 */
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define DIS_UNREACHED_QUERIES 8
#define DEAD_BYTES (128u << 20)   /* bytes read per query: over it, reached */
#define DEAD_CHUNK (64u << 10)
#define TABLE_MAX  (64u << 20)
#define DEAD_CANDS 64             /* functions decoded per query */
#define DEAD_QUERY (1u << 20)     /* bytes they may decode */
#define DEAD_DEPTH 4              /* callers asked about in a chain */
#define DEAD_VISITS 16            /* functions asked about per query */
#define BOUND_MAX 8               /* binding table entries judged per query */

/* One query, shared by the questions it asks of callers. */
struct dead_walk {
	size_t read;               /* bytes read, against DEAD_BYTES */
	size_t budget;             /* c->deep_decoded not to pass */
	unsigned visits;
	unsigned depth;
	uint64_t asking[DEAD_DEPTH + 1];  /* starts of the functions being asked about */
	GElf_Ehdr eh;
	size_t shstrndx;
};

/* What a query asks besides "does anything run it", and the answers:
 * ds_site_bound_by_name's names, a data word or relocated word naming the
 * function then kept to be judged (nbound of them), not taken for a
 * caller; dis_site_only_direct's list, where the direct calls and jumps
 * to the function are put (ndirect of them) for the asker to judge. */
struct dead_ask {
	const char *const *bind;
	const uint64_t *tables;   /* with bind: the starts of the tables the
	                             program registers with an interpreter
	                             (on_registrar) */
	size_t ntables;
	size_t nbound;
	uint64_t *direct;
	size_t ndirect, direct_max;
};

struct dead {
	struct ds_code *c;
	struct dead_walk *w;
	uint64_t lo, hi;          /* the function: [lo, hi) */
	bool reached;             /* or could not tell */
	uint64_t cand[DEAD_CANDS];  /* functions with a code pattern naming it */
	size_t ncand;
	struct dead_ask q;
	uint64_t bound[BOUND_MAX];  /* where q's bound words are */
};

/* v added to the set list (n of cap), once; a full set cannot tell: reached. */
static void remember(struct dead *d, uint64_t *list, size_t *n, size_t cap, uint64_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (list[i] == v)
			return;
	if (*n == cap)
		d->reached = true;
	else
		list[(*n)++] = v;
}

/* A word naming the function at addr: a caller, or in a query for a
 * binding, an entry to judge (bound_by_name) when there is room. */
static void named_at(struct dead *d, uint64_t addr)
{
	if (d->q.bind)
		remember(d, d->bound, &d->q.nbound, BOUND_MAX, addr);
	else
		d->reached = true;
}

static bool in_fn(const struct dead *d, uint64_t a)
{
	return a >= d->lo && a < d->hi;
}

/* A code pattern at `at` names the function: its own function is
 * decoded later (reach_by_code). */
static void hit(struct dead *d, uint64_t at)
{
	size_t fi = dis_func_of(d->c, at);
	if (fi == (size_t)-1) {
		d->reached = true;   /* code before every known function */
		return;
	}
	remember(d, d->cand, &d->ncand, DEAD_CANDS, d->c->starts[fi]);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* Can the 4 bytes at b + i be a pc-relative displacement?  Only after
 * call or jmp (e8, e9), a jcc (0f 80-8f), or, on x86-64, a ModRM byte
 * addressing off the rip (mod 00, r/m 101); near a chunk's start, where
 * those bytes are not at hand, any can (a chunk's first bytes were the
 * previous chunk's last, read with what came before them).  Most guesses
 * at an address come from bytes of no such shape, and each costs a
 * function's decoding. */
static bool rel32_shape(const unsigned char *b, size_t i, bool x64)
{
	if (i < 2)
		return true;
	unsigned char op = b[i - 1];
	return op == 0xe8 || op == 0xe9 || (b[i - 2] == 0x0f && op >= 0x80 && op <= 0x8f) ||
	       (x64 && (op & 0xc7) == 0x05);
}

/* x86 code at addr: a rel32 or rel8 branch, a rip-relative, absolute or
 * GOT-relative displacement naming the function, from outside it. */
static void code_x86(struct dead *d, const unsigned char *b, size_t len, uint64_t addr)
{
	bool x64 = d->c->arch->machine == EM_X86_64;
	/* an x86-64 PIE or library names an address by 4 bytes only with a
	 * text relocation, which relocs() reads: its immediates and
	 * displacements that happen to fall in the function are no callers */
	bool abs = !x64 || d->c->v->type == ET_EXEC;
	uint64_t mask = x64 ? UINT64_MAX : 0xffffffffu, got = d->c->gotbase;
	/* to the last 2 bytes: a short jump may end the code */
	for (size_t i = 0; i + 2 <= len && !d->reached; i++) {
		uint64_t at = addr + i;
		if (in_fn(d, at))
			continue;
		bool word = i + 4 <= len;
		uint64_t disp = word ? (uint64_t)(int64_t)(int32_t)le32(b + i) : 0;
		if ((word && rel32_shape(b, i, x64) && in_fn(d, (at + 4 + disp) & mask)) ||
		    (word && abs && in_fn(d, le32(b + i))) || (word && !x64 && got && in_fn(d, (got + disp) & mask)) ||
		    /* jmp/jcc/loop rel8: the byte after the opcode */
		    ((b[i] == 0xeb || (b[i] >= 0x70 && b[i] <= 0x7f) || (b[i] >= 0xe0 && b[i] <= 0xe3)) &&
		     in_fn(d, (at + 2 + (uint64_t)(int64_t)(int8_t)b[i + 1]) & mask)))
			hit(d, at);
	}
}

/* aarch64 code at addr: b, bl, b.cond, cbz/cbnz, tbz/tbnz, adr into the
 * function, a word holding an address in it (a literal), an adrp of one
 * of its pages. */
static void code_a64(struct dead *d, const unsigned char *b, size_t len, uint64_t addr)
{
	uint64_t first = d->lo & ~0xfffull, last = (d->hi - 1) & ~0xfffull;
	for (size_t i = 0; i + 4 <= len && !d->reached; i += 4) {
		uint32_t x = le32(b + i);
		uint64_t at = addr + i;
		if (in_fn(d, at))
			continue;
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
		uint64_t page = (at & ~0xfffull) +
		                ((uint64_t)sext((((x >> 5) & 0x7ffff) << 2) | ((x >> 29) & 3), 21) << 12);
		if ((branch && in_fn(d, at + (uint64_t)off)) || in_fn(d, x) ||
		    ((x & 0x9f000000) == 0x90000000 && page >= first && page <= last))
			hit(d, at);
	}
}

/* Data at addr: every 4-aligned word (8 bytes in an ELFCLASS64 file)
 * naming an address in the function. */
static void data_words(struct dead *d, const unsigned char *b, size_t len, uint64_t addr)
{
	bool wide = d->c->v->elfclass == ELFCLASS64;
	for (size_t i = 0; i + (wide ? 8 : 4) <= len && !d->reached; i += 4) {
		uint64_t w = le32(b + i);
		if (wide)
			w |= (uint64_t)le32(b + i + 4) << 32;
		if (in_fn(d, w))
			named_at(d, addr + i);
	}
}

/* A section's bytes, chunk by chunk (overlapping by 16 so that a pattern
 * cut at a chunk's end is seen whole), through fn. */
static void each_chunk(struct dead *d, const GElf_Shdr *sh, bool code)
{
	const struct ds_elfview *v = d->c->v;
	if (sh->sh_offset > v->file_size || sh->sh_size > v->file_size - sh->sh_offset) {
		d->reached = true;
		return;
	}
	unsigned char *buf = ds_xmalloc(DEAD_CHUNK + 16);
	for (uint64_t done = 0; done < sh->sh_size && !d->reached; done += DEAD_CHUNK) {
		size_t want = sh->sh_size - done < DEAD_CHUNK + 16 ? (size_t)(sh->sh_size - done)
		                                                  : DEAD_CHUNK + 16;
		d->w->read += want;
		if (d->w->read > DEAD_BYTES || !dis_read_at(d->c, sh->sh_offset + done, buf, want)) {
			d->reached = true;
			break;
		}
		if (!code)
			data_words(d, buf, want, sh->sh_addr + done);
		else if (d->c->arch->machine == EM_AARCH64)
			code_a64(d, buf, want, sh->sh_addr + done);
		else
			code_x86(d, buf, want, sh->sh_addr + done);
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
 * them; libglade's and GTK 3's builder connect a UI file's signal
 * handlers by looking their names up in the program (tiemu's debugger
 * key handler). */
static const char *const lookups[] = {
	"dlopen", "dlmopen", "dlsym", "dlvsym",
	"g_module_open", "g_module_symbol",
	"lt_dlopen", "lt_dlopenext", "lt_dlopenadvise", "lt_dlsym",
	"glade_xml_signal_autoconnect", "gtk_builder_connect_signals",
	NULL
};

/* Can anything call a function through a dynamic symbol the file defines?
 * A shared library's exports are what other objects call: always.  A
 * program (ET_EXEC, a PIE, or PT_INTERP without a soname: libc.so.6 has an
 * interpreter to print its version, and is a library) is what the loader
 * starts, not what others link to: only a plugin it loads or a name it
 * looks up calls through its exports, so without a look-up import
 * (lookups) an export names no caller.  A library the program is linked
 * with can still call back into it by name without a call the program
 * makes (GTK 4's builder, which finds a UI file's handlers through
 * GModule inside libgtk; a library built with undefined symbols the
 * program supplies): that is rare, and not seen from the program.  Such a function is then taken for dead code, which turns a
 * finding into info with its reason, never removes it. */
static bool exports_callable(const struct ds_elfview *v)
{
	bool program = v->type == ET_EXEC || v->df1_pie || (v->has_interp && !v->has_soname);
	return !program || ds_elf_imports_any(v, lookups) != NULL;
}

/* A dynamic symbol defined in the function: another object, or dlsym,
 * may call it (when exports_callable). */
static void exported(struct dead *d, Elf_Scn *scn, const GElf_Shdr *sh)
{
	if (sh->sh_size > TABLE_MAX || !sh->sh_entsize) {
		d->reached = true;
		return;
	}
	uint64_t value;
	for (size_t i = 1; i < sh->sh_size / sh->sh_entsize && !d->reached; i++)
		d->reached = sym_value(scn, sh, i, &value) && in_fn(d, value);
}

/* A relocation whose addend, or symbol plus addend, is in the function
 * (a REL entry's addend is the word it relocates: data_words sees it). */
static void relocs(struct dead *d, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf *elf = d->c->v->elf;
	Elf_Data *data = sh->sh_size <= TABLE_MAX ? elf_getdata(scn, NULL) : NULL;
	Elf_Scn *symscn = sh->sh_link ? elf_getscn(elf, sh->sh_link) : NULL;
	GElf_Shdr symsh;
	if (!data || !sh->sh_entsize) {
		d->reached = true;
		return;
	}
	bool syms = symscn && gelf_getshdr(symscn, &symsh);
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n && !d->reached; i++) {
		GElf_Rela r;
		uint64_t value;
		if (!dis_rel_at(d->c, data, sh, i, &r)) {
			d->reached = true;
			break;
		}
		size_t sym = GELF_R_SYM(r.r_info);   /* gelf widens ELF32 r_info */
		if (in_fn(d, (uint64_t)r.r_addend) ||
		    (sym && syms && sym_value(symscn, &symsh, sym, &value) &&
		     in_fn(d, value + (uint64_t)r.r_addend)))
			named_at(d, r.r_offset);
	}
}

static bool unreached(struct dead_walk *w, struct ds_code *c, uint64_t lo, uint64_t hi,
                      struct dead_ask *ask);

/* Is the candidate function at fn one being asked about further up? */
static bool asking(const struct dead_walk *w, uint64_t fn)
{
	for (unsigned i = 0; i <= w->depth; i++)
		if (w->asking[i] == fn)
			return true;
	return false;
}

/* Does an instruction of a candidate function that may run branch to, or
 * name, an address in the function?  One that cannot be decoded: yes. */
static void reach_by_code(struct dead *d)
{
	struct ds_code *c = d->c;
	struct dead_walk *w = d->w;
	for (size_t k = 0; k < d->ncand && !d->reached; k++) {
		struct dis_func f;
		if (asking(w, d->cand[k]))
			continue;
		if (!dis_decode_deep(c, d->cand[k], w->budget, (size_t)-1, &f)) {
			d->reached = true;
			break;
		}
		bool names = false;
		for (size_t i = 0; i < f.n && !names; i++) {
			const struct dis_insn *in = &f.in[i];
			if (d->q.direct && (in->kind == K_CALL || in->kind == K_JMP) && in->target == d->lo) {
				remember(d, d->q.direct, &d->q.ndirect, d->q.direct_max, in->addr);
				continue;
			}
			bool ref = in->ref_kind == R_READ || in->ref_kind == R_WRITE || in->ref_kind == R_ADDR;
			names = (in->target && in_fn(d, in->target)) || (ref && in_fn(d, in->ref)) ||
			        ((in->src == S_IMM || in->src == S_ADDR) && in_fn(d, (uint64_t)in->value));
		}
		uint64_t lo = f.start, hi = f.end;
		free(f.in);
		d->reached = names && (w->depth == DEAD_DEPTH || w->visits == DEAD_VISITS ||
		                       !unreached(w, c, lo, hi, NULL));
	}
}

/* Does the string at addr read name, or end in name after a separator
 * the languages put between a module's name and its member's: "os.setgid"
 * (Python), "POSIX::setgid" (Perl), "os/posix-chroot" (Janet),
 * "posix_setgid" (PHP)?  "mysetgid" is another word. */
static bool string_names(const struct ds_code *c, uint64_t addr, const char *name)
{
	char buf[64];
	size_t n = strlen(name);
	for (size_t pre = 0; pre + n + 1 <= sizeof buf; pre++) {
		if (!dis_read_vaddr(c, addr, buf, pre + n + 1) || memchr(buf, '\0', pre + n) != NULL)
			return false;
		if (buf[pre + n] == '\0' && memcmp(buf + pre, name, n) == 0 &&
		    (pre == 0 || strchr(".:/-_", buf[pre - 1]) != NULL))
			return true;
	}
	return false;
}

/* One relocation of the file's: its section (REL or RELA), the symbol
 * table it names symbols of (NULL: none read), and the entry. */
typedef void rel_fn(struct dead *d, const GElf_Shdr *sh, Elf_Scn *symscn, const GElf_Shdr *symsh,
                    const GElf_Rela *r, void *ctx);

/* Every relocation in the file's REL and RELA sections, as far as they
 * can be read. */
static void each_rel(struct dead *d, rel_fn *fn, void *ctx)
{
	Elf *elf = d->c->v->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
			continue;
		Elf_Data *data = sh.sh_size <= TABLE_MAX ? elf_getdata(scn, NULL) : NULL;
		Elf_Scn *symscn = sh.sh_link ? elf_getscn(elf, sh.sh_link) : NULL;
		GElf_Shdr symsh;
		if (symscn && !gelf_getshdr(symscn, &symsh))
			symscn = NULL;
		size_t n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Rela r;
			if (!dis_rel_at(d->c, data, &sh, i, &r))
				break;
			fn(d, &sh, symscn, &symsh, &r, ctx);
		}
	}
}

struct names_at {
	uint64_t *ptr;
	bool *have;
	unsigned ws;
};

/* A RELA relocation writing the word before a binding entry: the
 * address that word holds. */
static void name_rel(struct dead *d, const GElf_Shdr *sh, Elf_Scn *symscn, const GElf_Shdr *symsh,
                     const GElf_Rela *r, void *ctx)
{
	struct names_at *n = ctx;
	size_t sym = GELF_R_SYM(r->r_info);   /* gelf widens ELF32 r_info */
	uint64_t value = 0;
	/* a REL entry's addend is the word it relocates, read by
	 * bound_names; one naming a symbol is no string of the file's */
	if (sh->sh_type == SHT_REL || (sym && !(symscn && sym_value(symscn, symsh, sym, &value))))
		return;
	for (size_t k = 0; k < d->q.nbound; k++)
		if (r->r_offset == d->bound[k] - n->ws) {
			n->ptr[k] = value + (uint64_t)r->r_addend;
			n->have[k] = true;
		}
}

/* The words before the binding entries d->bound: the addresses they hold
 * once relocated, from their RELA relocations, else from the file. */
static void bound_names(struct dead *d, uint64_t *ptr, bool *have)
{
	struct names_at n = { ptr, have, d->c->v->elfclass == ELFCLASS64 ? 8 : 4 };
	each_rel(d, name_rel, &n);
	for (size_t k = 0; k < d->q.nbound; k++) {
		unsigned char b[8];
		if (!have[k] && dis_read_vaddr(d->c, d->bound[k] - n.ws, b, n.ws)) {
			ptr[k] = n.ws == 8 ? dis_word(d->c, b) : dis_le32(b);
			have[k] = true;
		}
	}
}

struct words {
	uint64_t lo;
	size_t n;
	unsigned ws;
	uint64_t *set;
};

static void word_rel(struct dead *d, const GElf_Shdr *sh, Elf_Scn *symscn, const GElf_Shdr *symsh,
                     const GElf_Rela *r, void *ctx)
{
	(void)d, (void)sh, (void)symscn, (void)symsh;
	struct words *w = ctx;
	uint64_t off = r->r_offset - w->lo;
	if (r->r_offset >= w->lo && off % w->ws == 0 && off / w->ws < w->n)
		w->set[off / w->ws / 64] |= 1ull << (off / w->ws % 64);
}

/* Which of the n words from lo on (ws bytes each) a relocation writes:
 * bit i of set[i / 64]. */
static void relocated_words(struct dead *d, uint64_t lo, size_t n, unsigned ws, uint64_t *set)
{
	struct words w = { lo, n, ws, set };
	each_rel(d, word_rel, &w);
}

#define TABLE_ENTRIES 1024   /* entries of a registered table followed */

/* Is the word at e the function member of an entry of a table registered
 * with an interpreter (d->q.tables): { name, fn } pairs from the table's
 * start, every name before it set (relocated, or not 0 in the file)?
 * Lua's luaL_Reg, whose { NULL, NULL } ends the table. */
static bool in_registered(struct dead *d, uint64_t e)
{
	unsigned ws = d->c->v->elfclass == ELFCLASS64 ? 8 : 4;
	for (size_t t = 0; t < d->q.ntables; t++) {
		uint64_t start = d->q.tables[t];
		if (e < start + ws || (e - ws - start) % (2 * ws) != 0 ||
		    (e - ws - start) / (2 * ws) >= TABLE_ENTRIES)
			continue;
		size_t words = (size_t)((e - start) / ws);   /* the name slots are the even ones */
		uint64_t set[2 * TABLE_ENTRIES / 64] = { 0 };
		relocated_words(d, start, words, ws, set);
		bool all = true;
		for (size_t w = 0; w < words && all; w += 2) {
			unsigned char b[8] = { 0 };
			all = (set[w / 64] >> (w % 64) & 1) ||
			      (dis_read_vaddr(d->c, start + w * ws, b, ws) && memcmp(b, "\0\0\0\0\0\0\0\0", ws) != 0);
		}
		if (all)
			return true;
	}
	return false;
}

/* Is every word kept in d->bound the member after a pointer to a string
 * naming one of d->q.bind: an entry of a binding's table, { "setgid",
 * its_setgid, ... } (CPython's PyMethodDef, Lua's luaL_Reg), or an entry
 * of a table the program registers with an interpreter? */
static bool bound_by_name(struct dead *d)
{
	uint64_t ptr[BOUND_MAX];
	bool have[BOUND_MAX] = { false };
	bound_names(d, ptr, have);
	for (size_t k = 0; k < d->q.nbound; k++) {
		bool named = false;
		for (size_t i = 0; have[k] && d->q.bind[i] && !named; i++)
			named = string_names(d->c, ptr[k], d->q.bind[i]);
		if (!named && !in_registered(d, d->bound[k]))
			return false;
	}
	return true;
}

/* Can nothing that runs name an address in [lo, hi)?  With ask->bind,
 * the words of binding table entries naming one of bind do not count,
 * and ask->nbound says how many there were; with ask->direct, the direct
 * calls and jumps to lo do not count, and are listed there. */
static bool unreached(struct dead_walk *w, struct ds_code *c, uint64_t lo, uint64_t hi,
                      struct dead_ask *ask)
{
	Elf *elf = c->v->elf;
	struct dead d = { .c = c, .w = w, .lo = lo, .hi = hi,
	                  .q = ask ? *ask : (struct dead_ask){ 0 } };
	if (d.hi <= d.lo || in_fn(&d, w->eh.e_entry))
		return false;
	bool nested = w->visits++ > 0;
	if (nested)
		w->asking[++w->depth] = lo;
	bool callable = exports_callable(c->v);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while (!d.reached && (scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh)) {
			d.reached = true;
			break;
		}
		const char *name = elf_strptr(elf, w->shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_DYNSYM && callable)
			exported(&d, scn, &sh);
		else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			relocs(&d, scn, &sh);
		/* a PLT stub jumps through its GOT slot, which the relocations
		 * and data words name; the symbol values of .dynsym are no
		 * data words, exported() has judged them */
		/* a binding's entries are judged by relocs(): the table of
		 * relocations itself is not one */
		if (d.reached || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS ||
		    sh.sh_type == SHT_DYNSYM ||
		    (d.q.bind && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)) ||
		    (name && (strncmp(name, ".eh_frame", 9) == 0 || strncmp(name, ".plt", 4) == 0 ||
		              strcmp(name, ".iplt") == 0)))
			continue;
		each_chunk(&d, &sh, (sh.sh_flags & SHF_EXECINSTR) != 0);
	}
	if (!d.reached && d.q.nbound)
		d.reached = !bound_by_name(&d);
	if (!d.reached)
		reach_by_code(&d);
	if (nested)
		w->depth--;
	if (ask)
		*ask = d.q;
	return !d.reached;
}

/* A query of the function holding the site, on the budgets of one. */
static bool site_query(const struct ds_site *site, struct dead_ask *ask)
{
	struct ds_code *c = site->c;
	Elf *elf = c->v->elf;
	struct dead_walk w = { .budget = dis_deep_budget(c, DEAD_QUERY) };
	/* the byte patterns are x86's and aarch64's: elsewhere, no answer */
	unsigned m = c->arch->machine;
	if ((m != EM_X86_64 && m != EM_386 && m != EM_AARCH64) ||
	    c->unreached_queries >= DIS_UNREACHED_QUERIES || !gelf_getehdr(elf, &w.eh) ||
	    elf_getshdrstrndx(elf, &w.shstrndx) != 0)
		return false;
	c->unreached_queries++;
	w.asking[0] = site->f->start;
	return unreached(&w, c, site->f->start, site->f->end, ask);
}

bool ds_site_unreached(const struct ds_site *site)
{
	return site_query(site, NULL);
}

/* The calls registering a table of { name, function } entries with an
 * interpreter the program embeds, and which argument is the table: Lua's
 * (luaL_newlib and luaL_register's modern form are luaL_setfuncs). */
static const char *const registrars[] = { "luaL_setfuncs", "luaL_register", "luaL_openlib", NULL };
static const unsigned registrar_arg[] = { 1, 2, 2 };

#define TABLES_MAX 64

struct tables {
	uint64_t at[TABLES_MAX];
	size_t n;
};

static int on_registrar(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct tables *t = ctx;
	const char *callee = ds_site_callee(site);
	for (size_t i = 0; callee && registrars[i]; i++) {
		if (strcmp(callee, registrars[i]) != 0)
			continue;
		struct ds_argsrc a = ds_site_arg(site, registrar_arg[i]);
		if (a.kind == DS_SRC_ADDR && t->n < TABLES_MAX)
			t->at[t->n++] = (uint64_t)a.value;
	}
	return t->n == TABLES_MAX;
}

bool ds_site_bound_by_name(const struct ds_site *site, const char *const *names)
{
	struct tables t = { .n = 0 };
	/* the nested search spends one of the file's DEEP_CALLERS: only
	 * where a registrar is imported */
	if (ds_elf_imports_any(site->c->v, registrars) &&
	    dis_each_call_nested(site->c, registrars, 0, on_registrar, &t) < 0)
		t.n = 0;
	struct dead_ask ask = { .bind = names, .tables = t.at, .ntables = t.n };
	return site_query(site, &ask) && ask.nbound > 0;
}

bool dis_site_only_direct(const struct ds_site *site, uint64_t *calls, size_t max, size_t *n)
{
	struct dead_ask ask = { .direct = calls, .direct_max = max };
	bool only = site_query(site, &ask);
	*n = ask.ndirect;
	return only;
}
