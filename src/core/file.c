/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file object's lazy accessors and the once-per-file classification. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "distsec/disasm.h"
#include "distsec/elfview.h"
#include "distsec/file.h"
#include "internal.h"
#include "profile.h"

int ds_file_fd(struct ds_file *f)
{
	if (f->fd_state != 0 || f->mem)
		return f->fd;
	f->fd_state = -1;
	if (f->pfd < 0)
		return -1;
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->pfd);
	/* Through /proc the reopened file is the O_PATH fd's own inode, already
	 * checked to be a regular file; by path it may have been replaced. */
	int fd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	bool by_path = fd < 0 && errno == ENOENT; /* no /proc mounted */
	if (by_path)
		fd = ds_open_beneath(ds_file_rootfd(f), f->path,
		                     O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && by_path &&
	    (fstat(fd, &st) != 0 || st.st_ino != f->ino || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = ESTALE;
	}
	if (fd < 0) {
		ds_report_unreadable(f, "cannot read", strerror(errno));
		return -1;
	}
	f->fd = fd;
	f->fd_state = 1;
	return fd;
}

/* Reads up to len bytes at off; returns bytes read or -1. */
static ssize_t read_at(const struct ds_file *f, void *buf, size_t len, off_t off)
{
	if (f->mem) {
		if (off >= f->size)
			return 0;
		size_t n = (size_t)(f->size - off) < len ? (size_t)(f->size - off) : len;
		memcpy(buf, f->mem + off, n);
		return (ssize_t)n;
	}
	size_t got = 0;
	if (ds_file_fd((struct ds_file *)f) < 0)
		return -1;
	while (got < len) {
		ssize_t r = pread(f->fd, (char *)buf + got, len - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

const unsigned char *ds_file_data(struct ds_file *f, size_t limit, size_t *len)
{
	if (f->mem) {
		*len = (size_t)f->size;
		return f->mem;
	}
	if (f->data_state == 0) {
		f->data_state = -1;
		if ((size_t)f->size > limit) {
			errno = EFBIG;
			return NULL;
		}
		if (ds_file_fd(f) < 0) {
			errno = EBADF;
			return NULL;
		}
		f->data = ds_xmalloc((size_t)f->size + 1);
		ssize_t r = read_at(f, f->data, (size_t)f->size, 0);
		if (r < 0) {
			free(f->data);
			f->data = NULL;
			return NULL;
		}
		f->data_len = (size_t)r;
		f->data[f->data_len] = '\0';
		f->data_state = 1;
	}
	*len = f->data_len;
	return f->data_state > 0 ? f->data : NULL;
}

static void report_unreadable(struct ds_file *f, enum ds_severity sev, const char *what,
                              const char *why)
{
	const struct ds_check *saved = f->worker->current;
	f->worker->current = &ds_check_scan_unreadable;
	struct ds_finding *d = ds_report(f, sev, "%s: %s", what, why);
	ds_detail_str(d, "reason", why);
	f->worker->current = saved;
}

const unsigned char *ds_file_script(struct ds_file *f, size_t *len)
{
	bool first = !f->mem && f->data_state == 0;
	const unsigned char *data = ds_file_data(f, DS_SCRIPT_MAX, len);
	if (!data && first && errno == EFBIG) {
		char *why = ds_xasprintf("%lld bytes, over the %u MiB a check reads",
		                         (long long)f->size, DS_SCRIPT_MAX >> 20);
		/* a package's script nobody read would pass a gate unseen: error,
		 * as for a member over the member cap; an installed one: info */
		report_unreadable(f, f->input ? DS_SEV_ERROR : DS_SEV_INFO, "not read", why);
		free(why);
	}
	return data;
}

const unsigned char *ds_file_shell_text(struct ds_file *f, size_t *len, size_t *nuls)
{
	const unsigned char *data = ds_file_script(f, len);
	if (data && f->shell_state == 0) {
		f->shell_state = 1;
		const unsigned char *nul = memchr(data, '\0', *len);
		if (nul) {
			f->shell = ds_xmalloc(*len + 1);
			size_t n = (size_t)(nul - data);
			memcpy(f->shell, data, n);
			for (const unsigned char *p = nul; p < data + *len; p++)
				if (*p)
					f->shell[n++] = *p;
			f->shell[n] = '\0';
			f->shell_len = n;
			f->nuls = *len - n;
		}
	}
	if (nuls)
		*nuls = data ? f->nuls : 0;
	if (data && f->shell) {
		*len = f->shell_len;
		return f->shell;
	}
	return data;
}

void ds_report_unreadable(struct ds_file *f, const char *what, const char *why)
{
	report_unreadable(f, DS_SEV_INFO, what, why);
}

const struct ds_elfview *ds_file_elf(struct ds_file *f)
{
	if (f->elf_state != 0)
		return f->elf;
	f->elf_state = -1;
	if (!f->mem && ds_file_fd(f) < 0)
		return NULL;
	const char *what = "malformed ELF";
	const char *why = ds_elf_headers_check(f->fd, f->mem, (size_t)f->size);
	Elf *e = why ? NULL
	             : f->mem ? elf_memory((char *)f->mem, (size_t)f->size)
	                      : elf_begin(f->fd, ELF_C_READ, NULL);
	if (!e && !why) {
		what = "cannot read ELF";
		why = elf_errmsg(-1);
	}
	f->elf = e ? ds_elfview_new(e, f->mem ? -1 : f->fd, (size_t)f->size, &why) : NULL;
	if (!f->elf) {
		/* The kernel runs a program by its program headers alone: a
		 * setuid one whose other headers are broken still runs, and
		 * must not pass a gate unjudged (its class needs no ELF view:
		 * daemon, set[ug]id, capabilities). */
		enum ds_class cls = ds_file_class(f);
		report_unreadable(f, ds_class_important(cls) ? DS_SEV_ERROR : DS_SEV_INFO, what, why);
		return NULL;
	}
	if (f->elf->skipped)   /* judged on the rest, and said what was not read */
		ds_report_unreadable(f, "ELF section not read", f->elf->skipped);
	f->elf_state = 1;
	return f->elf;
}

const struct ds_buildflags *ds_file_buildflags(struct ds_file *f)
{
	if (f->bflags_state != 0)
		return f->bflags;
	f->bflags_state = -1;
	struct ds_debugset *d = f->worker->scan->priv->debug;
	const struct ds_elfview *v = d ? ds_file_elf(f) : NULL;
	if (!v || !v->build_id_len)
		return NULL;
	struct ds_buildflags *bf = ds_xmalloc(sizeof *bf);
	struct ds_error err = DS_ERROR_INIT;
	int r = ds_debugset_find(d, v->build_id, v->build_id_len, bf, &err);
	if (r <= 0) {
		free(bf);
		if (r < 0)
			ds_report_unreadable(f, "debug file not read", ds_error_msg(&err));
		ds_error_clear(&err);
		return NULL;
	}
	f->bflags = bf;
	f->bflags_state = 1;
	return bf;
}

const char *ds_file_magic(struct ds_file *f)
{
	if (f->magic)
		return f->magic;
	unsigned char buf[16384];
	ssize_t n = S_ISREG(f->mode) ? read_at(f, buf, sizeof buf, 0) : 0;
	const char *m = NULL;
	if (S_ISDIR(f->mode))
		m = "directory";
	else if (n >= 0 && f->worker->magic)
		m = magic_buffer(f->worker->magic, buf, (size_t)n);
	f->magic = ds_xstrdup(m ? m : "unknown");
	return f->magic;
}

const char *const ds_shells[DS_NSHELLS + 1] = {
	"sh", "bash", "dash", "ksh", "ksh93", "mksh", "lksh", "pdksh", "zsh", "ash", "posh", NULL,
};

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

enum ds_kind ds_interp_kind(const char *interp, enum ds_kind other)
{
	if (in_list(interp, ds_shells))
		return DS_KIND_SHELL;
	return strncmp(interp, "python", 6) == 0 ? DS_KIND_PYTHON : other;
}

/* Copies the basename of the shebang interpreter (through env) to interp. */
static void parse_shebang(struct ds_file *f)
{
	char line[DS_HEAD_MAX];
	size_t n = 0;
	for (size_t i = 2; i < f->head_len && f->head[i] != '\n' && n < sizeof line - 1; i++)
		line[n++] = (char)f->head[i];
	line[n] = '\0';
	char *save = NULL, *tok = strtok_r(line, " \t\r", &save);
	if (tok && ends_with(tok, "/env")) {
		do
			tok = strtok_r(NULL, " \t\r", &save);
		while (tok && (tok[0] == '-' || strchr(tok, '=')));
	}
	if (!tok)
		return;
	const char *base = strrchr(tok, '/');
	base = base ? base + 1 : tok;
	/* "#!/bin/busybox sh": busybox's sh applet is ash */
	const char *applet = !strcmp(base, "busybox") ? strtok_r(NULL, " \t\r", &save) : NULL;
	if (applet && (!strcmp(applet, "sh") || !strcmp(applet, "ash")))
		base = "ash";
	snprintf(f->interp, sizeof f->interp, "%s", base);
}

void ds_classify(struct ds_file *f)
{
	f->kind = DS_KIND_OTHER;
	f->interp[0] = '\0';
	if (f->head_len >= 4 && memcmp(f->head, "\177ELF", 4) == 0) {
		f->kind = DS_KIND_ELF;
		return;
	}
	const char *base = strrchr(f->path, '/');
	base = base ? base + 1 : f->path;
	if (f->head_len >= 2 && f->head[0] == '#' && f->head[1] == '!') {
		parse_shebang(f);
		f->kind = ds_interp_kind(f->interp, DS_KIND_OTHER);
		return;
	}
	if (ends_with(base, ".py")) {
		f->kind = DS_KIND_PYTHON;
		snprintf(f->interp, sizeof f->interp, "python3");
	} else if (ends_with(base, ".sh")) {
		f->kind = DS_KIND_SHELL;
		snprintf(f->interp, sizeof f->interp, "sh");
	} else if ((f->mode & 0111) && f->head_len && !memchr(f->head, '\0', f->head_len)) {
		/* An executable text file without a usable shebang (a byte-order
		 * mark before "#!", say): libmagic still recognises those. */
		const char *m = ds_file_magic(f);
		if (strstr(m, "shell script")) {
			f->kind = DS_KIND_SHELL;
			snprintf(f->interp, sizeof f->interp, "%s",
			         strstr(m, "Bourne-Again") ? "bash" : strstr(m, "zsh") ? "zsh"
			         : strstr(m, "Korn") ? "ksh" : "sh");
		}
	}
}

static const char *const net_calls[] = { "connect", "listen", "accept", "accept4", NULL };
static const char *const resolver_calls[] = {
	"getaddrinfo", "getnameinfo", "gethostbyname", "gethostbyname2",
	"gethostbyname_r", "gethostbyname2_r", "gethostbyaddr", "gethostbyaddr_r",
	"getservbyname", "getservbyname_r", "getservbyport", "getservbyport_r", NULL,
};

/* A unit or init script starts it, under this name or (a hard link in
 * the root) another. */
bool ds_file_daemon(const struct ds_file *f)
{
	const struct ds_strmap *daemons = f->worker->scan->priv->daemons;
	if (!daemons)
		return false;
	uintptr_t *v = ds_strmap_get(daemons, f->path);
	if (v && (*v & DS_NAMED_DAEMON))
		return true;
	if (f->nlink < 2)
		return false;
	char *key = ds_daemon_inode_key(f->dev, f->ino);
	v = ds_strmap_get(daemons, key);
	free(key);
	return v && (*v & DS_NAMED_DAEMON);
}

const char *const *ds_file_list(const struct ds_file *f, const char *check, const char *name)
{
	const struct ds_scan *s = f->worker->scan;
	const struct ds_profile *p = s->opt->profile ? s->priv->profile
	                             : f->input ? (f->profile ? f->profile : s->priv->lists_stig)
	                             : s->priv->lists_root;
	return p ? ds_profile_list(p, check, name) : NULL;
}

enum ds_class ds_file_class(struct ds_file *f)
{
	if (f->cls != DS_CLASS_NONE)
		return f->cls;
	const struct ds_elfview *v = ds_file_elf(f);
	bool lib = v && ds_elf_pie(v) == DS_ELF_SHLIB;
	if (ds_file_daemon(f))
		f->cls = DS_CLASS_DAEMON;
	else if (f->mode & S_ISUID)
		f->cls = DS_CLASS_SETUID;
	else if (f->mode & S_ISGID)
		f->cls = DS_CLASS_SETGID;
	else if (f->has_caps || (!f->mem && ds_file_fd(f) >= 0 &&
	         fgetxattr(f->fd, "security.capability", NULL, 0) >= 0))
		f->cls = DS_CLASS_SETCAP;
	/* A library that calls connect() is not itself a network program:
	 * the programs linking it are classified by their own imports. */
	else if (!lib && v && ds_elf_imports_any(v, net_calls))
		f->cls = ds_elf_imports_any(v, resolver_calls) ? DS_CLASS_NETWORK_IP
		                                              : DS_CLASS_NETWORK_LOCAL;
	else if (lib)
		f->cls = DS_CLASS_LIBRARY;
	else
		f->cls = DS_CLASS_EXEC;
	return f->cls;
}

const char *ds_class_name(enum ds_class c)
{
	static const char *const names[] = {
		"none", "daemon", "setuid", "setgid", "setcap",
		"network-ip", "network-local", "library", "exec",
	};
	return names[c];
}

bool ds_class_important(enum ds_class c)
{
	return c >= DS_CLASS_DAEMON && c <= DS_CLASS_NETWORK_IP;
}

int ds_file_rootfd(const struct ds_file *f)
{
	return f->worker->scan->rootfd;
}

int ds_file_stat_in_root(const struct ds_file *f, const char *path, struct stat *st)
{
	char *canon = ds_resolve_in_root(ds_file_rootfd(f), path);
	int fd = canon ? ds_open_beneath(ds_file_rootfd(f), canon, O_PATH | O_CLOEXEC) : -1;
	free(canon);
	if (fd < 0)
		return -1;
	int rc = fstat(fd, st);
	close(fd);
	return rc;
}

struct ds_code *ds_file_code(struct ds_file *f, const char **why)
{
	if (!f->code_state) {
		const struct ds_elfview *v = ds_file_elf(f);
		f->code_why = "not an ELF file";
		f->code = v ? ds_code_open(v, &f->code_why) : NULL;
		f->code_state = 1;
	}
	ds_code_rewind(f->code);
	if (!f->code)
		*why = f->code_why;
	return f->code;
}

void ds_file_release(struct ds_file *f)
{
	ds_code_free(f->code);
	f->code = NULL;
	f->code_state = 0;
	ds_elfview_free(f->elf);
	free(f->bflags);
	f->bflags = NULL;
	f->bflags_state = 0;
	free(f->data);
	free(f->shell);
	free(f->magic);
	if (f->fd >= 0)
		close(f->fd);
	if (f->pfd >= 0)
		close(f->pfd);
	f->fd = f->pfd = -1;
	f->elf = NULL;
	f->data = NULL;
	f->shell = NULL;
	f->magic = NULL;
}

const char *ds_file_caps(struct ds_file *f, char *buf, size_t len)
{
	if (f->caps)
		return f->caps;
	if (f->mem)
		return f->has_caps ? "(unknown)" : NULL;
	if (ds_file_fd(f) < 0)
		return NULL;
	unsigned char v[64];
	ssize_t n = fgetxattr(f->fd, "security.capability", v, sizeof v);
	if (n < 0 && errno != ERANGE)
		return NULL;
	if (n < 0 || ds_caps_text(v, (size_t)n, buf, len) != 0)
		snprintf(buf, len, "(undecodable)");
	return buf;
}

const char *ds_file_symlink(struct ds_file *f, char *buf, size_t len)
{
	if (!S_ISLNK(f->mode) || len < 2)
		return NULL;
	if (f->mem || f->symlink || f->pfd < 0)
		return f->symlink;
	ssize_t n = readlinkat(f->pfd, "", buf, len - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}
