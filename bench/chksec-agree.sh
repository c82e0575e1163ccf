#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/chksec-agree.sh [WORKDIR [NREAL]]: distsec's per-package verdict
# (JSON summary.by_package, src/core/verdict.c) against rpm-chksec --all's,
# computed independently by bench/chksec-ref.py (readelf), per NAME.ARCH,
# on an rpm root built here with rpmbuild and rpm:
#   - 18 packages built from small C programs with chosen flags (PIE and
#     non-PIE, full/partial/no RELRO, BIND_NOW without RELRO, static,
#     setuid, setgid, file capabilities, a daemon with a systemd unit, a
#     library, network programs, no ELF at all, noarch);
#   - NREAL (default 140) packages that repackage the regular files of this
#     Debian host's installed packages (real programs and libraries built by
#     Debian, with their modes), those that have ELF files, no file name rpm
#     would glob, and under 8 MiB, in name order.
# Prints the agreement table and the disagreements; leaves
# WORKDIR/compare.tsv (one line per package, both verdicts) behind.
# Needs root (setuid files and capabilities are installed as they are),
# rpmbuild, rpm, gcc, readelf, python3.  DISTSEC names the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
W=${1:-/tmp/chksec-agree}
NREAL=${2:-140}
DISTSEC=${DISTSEC:-$here/../build/distsec}
[ "$(id -u)" = 0 ] || { echo "chksec-agree: needs root (setuid files, capabilities)" >&2; exit 2; }
rm -rf "$W"
mkdir -p "$W"/rpmbuild/{SPECS,SOURCES,BUILD,RPMS,SRPMS,BUILDROOT} "$W"/src "$W"/root
S=$W/src

# ---- the synthetic programs ---------------------------------------------
cat > "$S/hello.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
EOF
cat > "$S/net.c" <<'EOF'
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	struct addrinfo *ai;
	if (argc < 2 || getaddrinfo(argv[1], "80", NULL, &ai) != 0)
		return 1;
	int s = socket(ai->ai_family, SOCK_STREAM, 0);
	return connect(s, ai->ai_addr, ai->ai_addrlen) == 0 ? close(s) : 1;
}
EOF
cat > "$S/netlocal.c" <<'EOF'
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	strcpy(a.sun_path, "/run/x.sock");
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	return connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? close(s) : 1;
}
EOF
cat > "$S/lib.c" <<'EOF'
int chk_answer(void) { return 42; }
EOF

PIE="-fPIE -pie"
NOPIE="-fno-PIE -no-pie"
FULL="-Wl,-z,relro,-z,now"
PART="-Wl,-z,relro,-z,lazy"
NONE="-Wl,-z,norelro,-z,lazy"
# name | source | flags | path | mode | extra %files line
synth=(
	"s-pie-full|hello|$PIE $FULL|/usr/bin/s-pie-full|0755"
	"s-nopie-exec|hello|$NOPIE $PART|/usr/bin/s-nopie-exec|0755"
	"s-norelro-exec|hello|$PIE $NONE|/usr/bin/s-norelro-exec|0755"
	"s-now-norelro|hello|$PIE -Wl,-z,norelro,-z,now|/usr/bin/s-now-norelro|0755"
	"s-static|hello|-static $NOPIE|/usr/bin/s-static|0755"
	"s-setuid-nopie|hello|$NOPIE $FULL|/usr/bin/s-setuid-nopie|4755"
	"s-setuid-partial|hello|$PIE $PART|/usr/bin/s-setuid-partial|4755"
	"s-setuid-full|hello|$PIE $FULL|/usr/bin/s-setuid-full|4755"
	"s-setgid-norelro|hello|$PIE $NONE|/usr/bin/s-setgid-norelro|2755"
	"s-setcap-partial|hello|$PIE $PART|/usr/bin/s-setcap-partial|0755|caps"
	"s-daemon-nopie|hello|$NOPIE $FULL|/usr/sbin/s-daemon-nopied|0755|unit"
	"s-daemon-full|hello|$PIE $FULL|/usr/sbin/s-daemon-fulld|0755|unit"
	"s-lib-norelro|lib|-shared -fPIC $NONE|/usr/lib64/libs-lib-norelro.so.1|0755"
	"s-lib-partial|lib|-shared -fPIC $PART|/usr/lib64/libs-lib-partial.so.1|0755"
	"s-net-nopie|net|$NOPIE $FULL|/usr/bin/s-net-nopie|0755"
	"s-netlocal-nopie|netlocal|$NOPIE $FULL|/usr/bin/s-netlocal-nopie|0755"
	"s-noelf|-||/usr/bin/s-noelf|0755"
)

spec=$W/rpmbuild/SPECS/chk.spec
{
	cat <<'EOF'
%define debug_package %{nil}
%define __os_install_post %{nil}
%define _build_id_links none
%define _binary_payload w1.gzdio
%define _binaries_in_noarch_packages_terminate_build 0
Name: chk
Version: 1
Release: 1
Summary: rpm-chksec agreement set
License: GPL-2.0-or-later
AutoReqProv: no
%description
The rpm-chksec agreement set of bench/chksec-agree.sh.
EOF
	for e in "${synth[@]}"; do
		IFS='|' read -r name _ _ _ _ _ <<<"$e"
		printf '%%package -n %s\nSummary: %s\nAutoReqProv: no\n%%description -n %s\n%s\n' \
			"$name" "$name" "$name" "$name"
	done
	printf '%%package -n s-noarch\nSummary: noarch\nBuildArch: noarch\nAutoReqProv: no\n'
	printf '%%description -n s-noarch\nnoarch\n'
	echo '%install'
	for e in "${synth[@]}"; do
		IFS='|' read -r name src flags path mode extra <<<"$e"
		dst="%{buildroot}$path"
		echo "mkdir -p \$(dirname $dst)"
		if [ "$src" = - ]; then
			echo "printf '#!/bin/sh\\necho hi\\n' > $dst"
		else
			echo "gcc -O1 -o $dst $S/$src.c $flags"
		fi
		echo "chmod $mode $dst"
		if [ "${extra:-}" = unit ]; then
			echo "mkdir -p %{buildroot}/usr/lib/systemd/system"
			printf "printf '[Service]\\\\nExecStart=%s --foreground\\\\n' > %%{buildroot}/usr/lib/systemd/system/%s.service\n" \
				"$path" "$name"
		fi
	done
	echo "mkdir -p %{buildroot}/usr/bin && gcc -o %{buildroot}/usr/bin/s-noarch-tool $S/hello.c $NOPIE $NONE"
	for e in "${synth[@]}"; do
		IFS='|' read -r name src flags path mode extra <<<"$e"
		printf '%%files -n %s\n' "$name"
		case "${extra:-}" in
		caps) printf '%%caps(cap_net_raw=ep) %s\n' "$path" ;;
		unit) printf '%s\n/usr/lib/systemd/system/%s.service\n' "$path" "$name" ;;
		*) printf '%s\n' "$path" ;;
		esac
	done
	printf '%%files -n s-noarch\n/usr/bin/s-noarch-tool\n'
} > "$spec"

# ---- the real packages: this host's, repackaged ---------------------------
real=$W/real.list
python3 - "$W" "$NREAL" > "$real" <<'PY'
import os, re, subprocess, sys
w, want = sys.argv[1], int(sys.argv[2])
q = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${binary:Package}\t${Architecture}\n"],
                   capture_output=True, text=True).stdout
bad = re.compile(r"""[][ *?%{}\\"'\t]|[^\x21-\x7e]""")   # what rpm's %files would glob or split
n = 0
for line in sorted(q.splitlines(), key=lambda l: l.split("\t")[1]):
    st, pkg, arch = line.split("\t")
    name = pkg.split(":")[0]
    if not st.startswith("ii") or arch == "all" or "kernel" in name or "debuginfo" in name:
        continue
    lst = f"/var/lib/dpkg/info/{pkg}.list"
    if not os.path.exists(lst):
        lst = f"/var/lib/dpkg/info/{name}.list"
    try:
        paths = open(lst, errors="replace").read().splitlines()
    except OSError:
        continue
    files, size, elf, ok = [], 0, 0, True
    for f in paths:
        if not os.path.isfile(f) or os.path.islink(f) or f.startswith("/etc/alternatives/"):
            continue
        if bad.search(f):
            ok = False
            break
        with open(f, "rb") as h:
            elf += h.read(4) == b"\x7fELF"
        size += os.path.getsize(f)
        files.append(f)
    if not ok or not elf or size >= 8 << 20:
        continue
    with open(f"{w}/files-{name}", "w") as out:
        out.write("\n".join(files) + "\n")
    print(name)
    n += 1
    if n == want:
        break
PY

{
	echo
	while read -r p; do
		printf '%%package -n %s\nSummary: %s (Debian, repackaged)\nAutoReqProv: no\n%%description -n %s\n%s\n' \
			"$p" "$p" "$p" "$p"
	done < "$real"
} > "$W/real.spec.in"
{
	while read -r p; do
		printf 'while IFS= read -r f; do mkdir -p "%%{buildroot}$(dirname "$f")"; cp -p "$f" "%%{buildroot}$f"; done < %s\n' "$W/files-$p"
	done < "$real"
} > "$W/real.install"
{
	while read -r p; do
		printf '%%files -n %s\n' "$p"
		cat "$W/files-$p"
	done < "$real"
} > "$W/real.files"
# preamble subpackages go before %install, the rest after
awk -v pre="$W/real.spec.in" -v inst="$W/real.install" '
	/^%install$/ { while ((getline l < pre) > 0) print l; print; while ((getline l < inst) > 0) print l; next }
	{ print }' "$spec" > "$spec.new"
cat "$W/real.files" >> "$spec.new"
mv "$spec.new" "$spec"

echo "== rpmbuild: $(grep -c '^%files' "$spec") packages" >&2
rpmbuild --quiet --define "_topdir $W/rpmbuild" -bb "$spec" >"$W/rpmbuild.log" 2>&1 ||
	{ tail -20 "$W/rpmbuild.log" >&2; exit 1; }
rpm --root "$W/root" --dbpath /usr/lib/sysimage/rpm --initdb
rpm --root "$W/root" --dbpath /usr/lib/sysimage/rpm -i --nodeps --noscripts --nosignature --ignorearch --replacefiles \
	"$W"/rpmbuild/RPMS/*/*.rpm >"$W/rpm-install.log" 2>&1 ||
	{ tail -20 "$W/rpm-install.log" >&2; exit 1; }
echo "== installed: $(rpm --root "$W/root" --dbpath /usr/lib/sysimage/rpm -qa | wc -l) packages" >&2

# ---- both verdicts ------------------------------------------------------
python3 "$here/chksec-ref.py" "$W/root" > "$W/ref.tsv"
rc=0
"$DISTSEC" scan --root "$W/root" --backend rpm --check elf-relro,elf-pie --format json -v -q \
	-o "$W/distsec.json" || rc=$?
[ "$rc" -le 1 ] || { echo "chksec-agree: distsec failed ($rc)" >&2; exit 1; }

python3 - "$W/ref.tsv" "$W/distsec.json" "$W/compare.tsv" <<'EOF'
import csv, json, sys
ref = {r["package"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
ds = json.load(open(sys.argv[2]))["summary"]["by_package"]
rows = []
for k in sorted(set(ref) | set(ds)):
    r, d = ref.get(k), ds.get(k)
    rr = (r["relro"], r["pie"]) if r else ("-", "-")
    dd = (d["relro"], d["pie"]) if d else ("-", "-")
    if not r:
        how = "distsec-only"
    elif not d:   # distsec judges no ELF file of it: its verdict is nothing to flag
        how = "no-elf" if r["elf_files"] == "0" else "not-judged"
        how += "-agree" if rr == ("yes", "yes") else "-DISAGREE"
    else:
        how = "agree" if rr == dd else "DISAGREE"
    rows.append([k, r["relro_all"] if r else "-", rr[0], rr[1], (r or {}).get("class", ""),
                 r["elf_files"] if r else "-", dd[0], dd[1], (d or {}).get("class", ""), how])
with open(sys.argv[3], "w") as out:
    w = csv.writer(out, delimiter="\t", lineterminator="\n")
    w.writerow(["package", "chksec_relro_all", "chksec_relro", "chksec_pie", "chksec_class",
                "elf_files", "distsec_relro", "distsec_pie", "distsec_class", "result"])
    w.writerows(rows)
count = lambda f: sum(1 for x in rows if f(x))
both = [x for x in rows if x[6] != "-" and x[2] != "-"]
print(f"packages: rpm-chksec lists {len(ref)}, distsec {len(ds)}")
print(f"both give a verdict: {len(both)}; RELRO and PIE agree: {count(lambda x: x[9] == 'agree')}/{len(both)}"
      f" (RELRO {sum(x[2] == x[6] for x in both)}, PIE {sum(x[3] == x[7] for x in both)})")
named = [x for x in both if x[4]]
print(f"class, where rpm-chksec names one and both list the package: "
      f"{sum(x[4] == x[8] for x in named)}/{len(named)}")
ok = count(lambda x: x[9].endswith("agree"))
print(f"all rpm-chksec rows, a package distsec does not list read as nothing to flag: {ok}/{len(ref)}")
for how in ("not-judged-agree", "not-judged-DISAGREE", "no-elf-agree", "no-elf-DISAGREE", "distsec-only"):
    print(f"{how}: {count(lambda x: x[9] == how)}")
counts = {}
for x in rows:
    if x[2] != "-":
        counts[(x[2], x[3])] = counts.get((x[2], x[3]), 0) + 1
print("rpm-chksec verdicts (RELRO, PIE): " +
      ", ".join(f"{a}/{b} {c}" for (a, b), c in sorted(counts.items())))
for x in rows:
    if x[9] != "agree":
        print("\t".join([x[9]] + x[:9]))
EOF
