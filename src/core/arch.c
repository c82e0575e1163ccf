/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which ELF files the scanned system would run.  The hardening checks judge
 * only those: an ET_EXEC or ET_DYN file with an executable PT_LOAD whose
 * machine, class and byte order are one of the system's architectures.
 * Guile .go bytecode (EM_NONE), firmware of other machines, objects, core
 * files, separate debug files and ELF data under /usr/share (Go's test
 * data; lintian's arch-dependent-file-in-usr-share: but never a set-id
 * file there, nor an executable one a unit, an init script or a PATH
 * link names) are not programs of the system, and a
 * finding about their "missing RELRO" would be noise.
 *
 * The system's architectures: the backend's list when it has one (dpkg:
 * native and foreign), else the installed packages' architectures (rpm),
 * else the ELF header of the root's bin/sh, else this program's own.  A
 * package file's members are judged against the package's architecture.
 * Either list is widened by what the kernel of each architecture runs
 * natively beside it (its compat ABIs): an i386 setuid helper in an amd64
 * package runs, so it is judged.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "internal.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define L ELFDATA2LSB
#define M ELFDATA2MSB
#define C32 ELFCLASS32
#define C64 ELFCLASS64

/* Package managers' architecture names; the first name of each machine is
 * the one messages use. */
static const struct arch_name {
	const char *name;
	struct ds_machine m;
} names[] = {
	{ "x86_64", { EM_X86_64, C64, L } }, { "amd64", { EM_X86_64, C64, L } },
	{ "x32", { EM_X86_64, C32, L } },
	{ "i386", { EM_386, C32, L } }, { "i486", { EM_386, C32, L } },
	{ "i586", { EM_386, C32, L } }, { "i686", { EM_386, C32, L } },
	{ "athlon", { EM_386, C32, L } }, { "x86", { EM_386, C32, L } },
	{ "aarch64", { EM_AARCH64, C64, L } }, { "arm64", { EM_AARCH64, C64, L } },
	{ "arm", { EM_ARM, C32, L } }, { "armhf", { EM_ARM, C32, L } },
	{ "armel", { EM_ARM, C32, L } }, { "armv7hl", { EM_ARM, C32, L } },
	{ "armv7l", { EM_ARM, C32, L } }, { "armv6hl", { EM_ARM, C32, L } },
	{ "armv7", { EM_ARM, C32, L } },
	/* Arch Linux ARM's and Arch Linux 32's pacman names */
	{ "armv7h", { EM_ARM, C32, L } }, { "armv6h", { EM_ARM, C32, L } },
	{ "pentium4", { EM_386, C32, L } },
	{ "s390x", { EM_S390, C64, M } }, { "s390", { EM_S390, C32, M } },
	{ "ppc64le", { EM_PPC64, C64, L } }, { "ppc64el", { EM_PPC64, C64, L } },
	{ "ppc64", { EM_PPC64, C64, M } }, { "powerpc", { EM_PPC, C32, M } },
	{ "ppc", { EM_PPC, C32, M } },
	{ "riscv64", { EM_RISCV, C64, L } },
	{ "mips64el", { EM_MIPS, C64, L } }, { "mips64", { EM_MIPS, C64, M } },
	{ "mipsel", { EM_MIPS, C32, L } }, { "mips", { EM_MIPS, C32, M } },
	{ "loongarch64", { EM_LOONGARCH, C64, L } }, { "loong64", { EM_LOONGARCH, C64, L } },
	{ "sparc64", { EM_SPARCV9, C64, M } }, { "hppa", { EM_PARISC, C32, M } },
	{ "alpha", { EM_ALPHA, C64, L } }, { "ia64", { EM_IA_64, C64, L } },
	{ "m68k", { EM_68K, C32, M } }, { "sh4", { EM_SH, C32, L } },
};

bool ds_arch_lookup(const char *name, struct ds_machine *out)
{
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i].name, name) == 0) {
			*out = names[i].m;
			return true;
		}
	return false;
}

static bool same(struct ds_machine a, struct ds_machine b)
{
	return a.machine == b.machine && a.elfclass == b.elfclass && a.data == b.data;
}

/* What a kernel of a system's architecture also runs: CONFIG_IA32_EMULATION
 * and CONFIG_X86_X32_ABI on x86-64 (an x32 system always has an x86-64
 * kernel: x32 is one of its ABIs), CONFIG_COMPAT on arm64 (32-bit ARM,
 * little-endian, armhf and armel alike), on big-endian ppc64 (ppc32; a
 * ppc64le kernel has no 32-bit ABI) and on s390x (31-bit s390).  Other
 * 32-bit systems are not assumed to run a 64-bit kernel. */
static const struct compat_abi {
	struct ds_machine kernel, runs;
} compat_abis[] = {
	{ { EM_X86_64, C64, L }, { EM_386, C32, L } },
	{ { EM_X86_64, C64, L }, { EM_X86_64, C32, L } },
	{ { EM_X86_64, C32, L }, { EM_X86_64, C64, L } },
	{ { EM_X86_64, C32, L }, { EM_386, C32, L } },
	{ { EM_AARCH64, C64, L }, { EM_ARM, C32, L } },
	{ { EM_PPC64, C64, M }, { EM_PPC, C32, M } },
	{ { EM_S390, C64, M }, { EM_S390, C32, M } },
};

/* Appends m to list[*n] (cap entries) unless it is there, then what its
 * kernel runs beside it. */
static void add_runs(struct ds_machine *list, size_t *n, size_t cap, struct ds_machine m)
{
	struct ds_machine want[1 + sizeof compat_abis / sizeof compat_abis[0]];
	size_t nwant = 0;
	want[nwant++] = m;
	for (size_t i = 0; i < sizeof compat_abis / sizeof compat_abis[0]; i++)
		if (same(compat_abis[i].kernel, m))
			want[nwant++] = compat_abis[i].runs;
	for (size_t w = 0; w < nwant; w++) {
		bool have = false;
		for (size_t i = 0; i < *n && !have; i++)
			have = same(list[i], want[w]);
		if (!have && *n < cap)
			list[(*n)++] = want[w];
	}
}

const char *ds_machine_name(struct ds_machine m, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (same(names[i].m, m))
			return names[i].name;
	snprintf(buf, len, "e_machine %u (%d-bit %s)", m.machine, m.elfclass == C64 ? 64 : 32,
	         m.data == M ? "MSB" : "LSB");
	return buf;
}

/* Machine, class and byte order of an ELF header's first 20 bytes. */
static bool header_machine(const unsigned char *h, size_t n, struct ds_machine *out)
{
	if (n < 20 || memcmp(h, ELFMAG, SELFMAG) != 0)
		return false;
	out->elfclass = h[EI_CLASS];
	out->data = h[EI_DATA];
	out->machine = out->data == M ? (unsigned)(h[18] << 8 | h[19])
	                              : (unsigned)(h[19] << 8 | h[18]);
	return true;
}

/* This program's own architecture, from the ELF header the linker maps. */
extern const unsigned char __ehdr_start[];

static struct ds_machine host_machine(void)
{
	struct ds_machine m = { EM_X86_64, C64, L };
	header_machine(__ehdr_start, 20, &m);
	return m;
}

static void add(struct ds_scan_private *p, struct ds_machine m)
{
	add_runs(p->arches, &p->narches, DS_ARCHES_MAX, m);
}

static void add_name(struct ds_scan_private *p, const char *name)
{
	struct ds_machine m;
	if (ds_arch_lookup(name, &m))
		add(p, m);
}

static bool bin_sh_machine(const struct ds_scan *s, struct ds_machine *out)
{
	char *canon = ds_resolve_in_root(s->rootfd, "/bin/sh");
	int fd = canon ? ds_open_beneath(s->rootfd, canon,
	                                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
	               : -1;
	free(canon);
	unsigned char h[20];
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	          pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h && header_machine(h, sizeof h, out);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Once per scan, on the first ELF file (the backend may still be loading). */
static void load_root_arches(struct ds_scan *s)
{
	struct ds_scan_private *p = s->priv;
	p->arches_source = "this program's architecture";
	if (ds_scan_backend_wait(s) == 0) {
		const char *const *list = NULL;
		size_t n = 0;
		if (s->backend->arches)
			s->backend->arches(s->bh, &list, &n);
		for (size_t i = 0; i < n; i++)
			add_name(p, list[i]);
		for (size_t i = 0; !p->narches && s->backend->count && i < s->backend->count(s->bh); i++) {
			const struct ds_pkg *pkg = s->backend->info(s->bh, (ds_pkgid)i);
			if (pkg)
				add_name(p, pkg->arch);
		}
		if (p->narches)
			p->arches_source = "the package database";
	}
	struct ds_machine m;
	if (!p->narches && bin_sh_machine(s, &m)) {
		add(p, m);
		p->arches_source = "the root's /bin/sh";
	}
	if (!p->narches)
		add(p, host_machine());
}

/* The architectures f is judged against: its package file's (in own[],
 * DS_OWN_ARCHES_MAX), or the root's. */
#define DS_OWN_ARCHES_MAX 4
static size_t arches_for(struct ds_file *f, struct ds_machine *own, const struct ds_machine **list)
{
	const struct ds_pkg *pkg = f->preset_owner && f->preset_owner->npkgs
		? f->preset_owner->pkgs[0] : NULL;
	if (pkg) {
		struct ds_machine m;
		if (!ds_arch_lookup(pkg->arch, &m))   /* all, noarch */
			m = host_machine();
		size_t n = 0;
		add_runs(own, &n, DS_OWN_ARCHES_MAX, m);
		*list = own;
		return n;
	}
	struct ds_scan *s = f->worker->scan;
	struct ds_scan_private *p = s->priv;
	pthread_mutex_lock(&p->arches_lock);
	if (!p->arches_done) {
		load_root_arches(s);
		p->arches_done = true;
	}
	pthread_mutex_unlock(&p->arches_lock);
	*list = p->arches;
	return p->narches;
}

static const char *type_reason(unsigned type)
{
	switch (type) {
	case ET_REL: return "a relocatable object (ET_REL), linked into programs, not run";
	case ET_CORE: return "a core dump (ET_CORE)";
	case ET_NONE: return "no file type (ET_NONE)";
	default: return "an ELF type the loader does not run";
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* ELF the boot firmware or a boot loader maps, never the kernel's or the
 * dynamic loader's: syslinux's COM32 modules (ET_DYN, one RWE segment),
 * systemd-boot's stubs (turned into PE by ukify), .efi images. */
static bool boot_payload(const char *path)
{
	return ends_with(path, ".c32") || ends_with(path, ".elf.stub") || ends_with(path, ".efi") ||
	       strncmp(path, "/usr/lib/syslinux/", 18) == 0;
}

/* A file in a data directory that runs all the same: set-id (its mode
 * alone makes it a privileged program wherever it sits), or executable
 * and started by a unit or an init script, or named by a PATH
 * directory's symbolic link. */
static bool run_from_data_dir(const struct ds_file *f)
{
	if (f->mode & (S_ISUID | S_ISGID))
		return true;
	if (!(f->mode & 0111))
		return false;
	const uintptr_t *v = ds_strmap_get(f->worker->scan->priv->daemons, f->path);
	return (v && (*v & DS_NAMED_PATH)) || ds_file_daemon(f);
}

const char *ds_elf_not_judged(struct ds_file *f, char *buf, size_t len)
{
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return NULL;   /* malformed: scan-unreadable said so */
	if (v->type != ET_EXEC && v->type != ET_DYN)
		return type_reason(v->type);
	if (v->machine == EM_NONE)
		return "e_machine EM_NONE: no machine code (bytecode such as Guile .go, or data)";
	struct ds_machine own[DS_OWN_ARCHES_MAX], mine = { v->machine, v->elfclass, v->data };
	const struct ds_machine *list;
	size_t n = arches_for(f, own, &list);
	bool native = false;
	for (size_t i = 0; i < n && !native; i++)
		native = same(list[i], mine);
	if (!native) {
		char b1[64], b2[64];
		snprintf(buf, len, "built for %s; the scanned system runs %s",
		         ds_machine_name(mine, b1, sizeof b1),
		         n ? ds_machine_name(list[0], b2, sizeof b2) : "?");
		return buf;
	}
	if (ds_in_data_dir(f->path) && !run_from_data_dir(f))
		return "under /usr/share, architecture-independent data (test data, firmware)";
	if (v->debug_only)
		return "separate debug information (its code sections are NOBITS)";
	if (boot_payload(f->path))
		return "a boot loader's module or EFI stub (syslinux .c32, systemd-boot .elf.stub): "
		       "firmware loads it, not Linux";
	if (!v->exec_load)
		return "no executable PT_LOAD segment: the loader maps no code from it";
	if (ds_elf_pie(v) != DS_ELF_SHLIB && !(f->mode & 0111))
		return "a program without execute permission: the kernel does not run it";
	return NULL;
}
