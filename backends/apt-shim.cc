// SPDX-License-Identifier: GPL-2.0-or-later
// libapt-pkg behind a C table (see apt-shim.h).  Everything C++ stays here.
#include <apt-pkg/cachefile.h>
#include <apt-pkg/configuration.h>
#include <apt-pkg/error.h>
#include <apt-pkg/init.h>
#include <apt-pkg/pkgcache.h>
#include <apt-pkg/pkgsystem.h>
#include <apt-pkg/policy.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "apt-shim.h"

struct ds_apt {
	pkgCacheFile cache;
};

static void take_errors(char **why)
{
	std::string msg;
	while (!_error->empty()) {
		std::string m;
		_error->PopMessage(m);
		if (msg.empty())
			msg = m;
	}
	if (why)
		*why = strdup(msg.empty() ? "libapt-pkg failed" : msg.c_str());
}

static struct ds_apt *shim_open(const char *root, const char *status, const char *lists,
                                const char *etc, char **why)
{
	std::string r = strcmp(root, "/") == 0 ? "" : root;
	if (!pkgInitConfig(*_config)) {
		take_errors(why);
		return nullptr;
	}
	_config->Set("Dir", r + "/");
	_config->Set("Dir::State::status", status);
	_config->Set("Dir::State::Lists", std::string(lists) + "/");
	_config->Set("Dir::Etc", std::string(etc) + "/");
	// Never write: build the cache in memory instead of pkgcache.bin.
	_config->Set("Dir::Cache::pkgcache", "");
	_config->Set("Dir::Cache::srcpkgcache", "");
	_config->Set("Debug::NoLocking", "1");
	if (!pkgInitSystem(*_config, _system)) {
		take_errors(why);
		return nullptr;
	}
	ds_apt *a = new ds_apt;
	// The package cache and the policy only: origins and candidates need
	// no dependency cache (ReadOnlyOpen's BuildDepCache solved every
	// package's dependencies, a fifth of the database load).
	if (!a->cache.BuildCaches(nullptr, false) || !a->cache.BuildPolicy(nullptr) ||
	    _error->PendingError()) {
		take_errors(why);
		delete a;
		return nullptr;
	}
	_error->Discard();
	return a;
}

static char *dup(const std::string &s)
{
	return s.empty() ? nullptr : strdup(s.c_str());
}

static int shim_lookup(struct ds_apt *a, const char *name, const char *arch,
                       char **origin, char **candidate)
{
	*origin = *candidate = nullptr;
	pkgCache *cache = a->cache.GetPkgCache();
	pkgCache::PkgIterator p = cache->FindPkg(name, arch ? arch : "native");
	if (p.end() || p.CurrentVer().end())
		return -1;
	pkgCache::VerIterator cur = p.CurrentVer();
	std::string where;
	for (pkgCache::VerFileIterator vf = cur.FileList(); !vf.end(); ++vf) {
		pkgCache::PkgFileIterator f = vf.File();
		if (f.Flagged(pkgCache::Flag::NotSource))
			continue;  // the dpkg status file itself
		auto s = [](const char *v) { return std::string(v ? v : ""); };
		where = s(f.Origin()) + "/" + s(f.Codename() ? f.Codename() : f.Archive()) + "/" +
		        s(f.Component());
		break;
	}
	*origin = dup(where.empty() ? "local" : where);
	pkgCache::VerIterator cand = a->cache.GetPolicy()->GetCandidateVer(p);
	if (!cand.end())
		*candidate = dup(cand.VerStr());
	return 0;
}

static void shim_close(struct ds_apt *a)
{
	delete a;
}

static const ds_apt_shim shim = { DS_APT_SHIM_ABI, shim_open, shim_lookup, shim_close };

extern "C" __attribute__((visibility("default"))) const ds_apt_shim *distsec_apt_shim_entry(void)
{
	return &shim;
}
