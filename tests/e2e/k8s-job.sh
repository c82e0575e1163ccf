#!/bin/sh
# The Kubernetes Indexed Job of docs/USAGE.md ("A Kubernetes Indexed Job"),
# as written, validated offline against the batch/v1 Job schema that
# k8sjob.py builds from Debian's python3-kubernetes (the API types
# generated from Kubernetes' OpenAPI specification) and the API server's
# Job rules, and its distsec command against the Job: one share per
# completion index, list and reports on its volumes.  Each way of breaking
# the manifest below must be refused, so the check can fail.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/recipes.sh"
py=
for p in python3 /usr/bin/python3; do
	if command -v $p >/dev/null && $p -c 'import kubernetes.client, jsonschema, yaml' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || { echo "SKIP: no python3 with kubernetes, jsonschema and yaml (Debian: python3-kubernetes python3-jsonschema)"; exit 77; }

recipe 1 'A Kubernetes Indexed Job' >"$work/job.yaml"
grep -q '^kind: Job$' "$work/job.yaml" || { cat "$work/job.yaml" >&2; fail "no Job in the recipe"; }
$py "$SRCDIR/e2e/k8sjob.py" "$work/job.yaml" >"$work/out" 2>&1 || { cat "$work/out" >&2; fail "the manifest is not a valid Job"; }
echo "the Indexed Job of docs/USAGE.md is a valid batch/v1 Job"

# refused SED-SCRIPT MESSAGE: the manifest so changed is refused with MESSAGE
refused() {
	sed "$1" "$work/job.yaml" >"$work/bad.yaml"
	! cmp -s "$work/job.yaml" "$work/bad.yaml" || fail "'$1' changed nothing"
	! $py "$SRCDIR/e2e/k8sjob.py" "$work/bad.yaml" >"$work/out" 2>&1 || fail "'$1': accepted"
	grep -qF -- "$2" "$work/out" || { cat "$work/out" >&2; fail "'$1': not '$2'"; }
}
refused 's/completionMode:/completionsMode:/' "Additional properties are not allowed ('completionsMode' was unexpected)"
refused 's/- name: scan/- image2: scan/' "'name' is a required property"
refused 's/parallelism: 8/parallelism: "8"/' "'8' is not of type 'integer'"
refused 's/restartPolicy: Never/restartPolicy: Always/' "a Job takes Never or OnFailure, not 'Always'"
refused 's/completions: 32/completions: 16/' "--shard .../32, but the Job runs 16 completions"
refused 's/mountPath: \/reports}/mountPath: \/out}/' "the report /reports/shard-\$JOB_COMPLETION_INDEX.json is on no volume it mounts writable"
refused 's/claimName: mirror}/claim: mirror}/' "'claimName' is a required property"
echo "7 broken manifests refused"
echo "PASS"
