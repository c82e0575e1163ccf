#!/bin/sh
# Backends keep their state per handle: two roots' databases, made with the
# package managers' own tools, open at once in one process (HANDLES, the
# backend-handles driver) each answer from their own root, and a handle
# closed and opened again leaves the other as it was; under valgrind
# (memcheck suite) a closed handle's database is freed.
. "$(dirname "$0")/lib.sh"

# handles BACKEND: the driver on $work/r1 (owning /usr/bin/alpha) and
# $work/r2 (owning /usr/bin/beta); exactly the owners each root's database gives
handles() {
	rc=0
	${DISTSEC_WRAPPER:-} "$HANDLES" "$1" "$work/r1" /usr/bin/alpha "$work/r2" /usr/bin/beta \
		>"$work/out" 2>"$work/err" || rc=$?
	expect_rc 0
	cat >"$work/want" <<OUT
h1 /usr/bin/alpha alpha
h1 /usr/bin/beta not-owned
h2 /usr/bin/alpha not-owned
h2 /usr/bin/beta beta
h1-again /usr/bin/alpha alpha
h1-again /usr/bin/beta not-owned
h2 /usr/bin/alpha not-owned
h2 /usr/bin/beta beta
OUT
	diff "$work/want" "$work/out" >&2 || fail "$1: owners"
	ran="$ran $1"
}

ran=
if command -v dpkg-deb >/dev/null && "$DISTSEC" backends | grep -q '^  dpkg '; then
	force=""
	[ "$(id -u)" = 0 ] || force="--force-not-root --force-bad-path"
	cp "$FIXTURES/pie-full" "$work/tool"
	for n in alpha beta; do
		mkdeb_files $n amd64 tool=usr/bin/$n
		r="$work/r1"
		[ $n = alpha ] || r="$work/r2"
		mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
		: >"$r/var/lib/dpkg/status"
		: >"$r/var/lib/dpkg/available"
		dpkg --root="$r" $force -i "$work/$n.deb" >/dev/null
	done
	handles dpkg
	rm -rf "$work/r1" "$work/r2"
fi
if command -v rpmbuild >/dev/null && "$DISTSEC" backends | grep -q '^  rpm '; then
	for n in alpha beta; do
		fixture_rpm $n "mkdir -p %{buildroot}/usr/bin; install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/$n" \
			/usr/bin/$n
		r="$work/r1"
		[ $n = alpha ] || r="$work/r2"
		rpm --root "$r" --dbpath /var/lib/rpm --initdb
		rpm --root "$r" --dbpath /var/lib/rpm -i --justdb --nodeps --noscripts --ignorearch \
			"$rpm_file" 2>/dev/null
	done
	handles rpm
fi
[ -n "$ran" ] || { echo "SKIP: neither the dpkg nor the rpm backend and tools"; exit 77; }
echo "ok:$ran"
