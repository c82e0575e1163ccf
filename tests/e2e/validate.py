#!/usr/bin/env python3
"""Validates distsec reports: validate.py json|sarif|junit FILE.

json and sarif are checked against the JSON Schemas in tests/schema with
python3-jsonschema (sarif: the official OASIS 2.1.0 schema); every SARIF URI
is also checked to be an RFC 3986 reference; junit is validated against
Jenkins' junit-10.xsd with xmllint, then its totals cross-checked and each
testcase held to at most one <failure> (GitLab keeps only one).
Prints one line of counts on success, exits 1 with the reason otherwise."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema")
URI_REF = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:)?([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-F]{2})*$")


def check_schema(doc, name, validator=jsonschema.Draft202012Validator):
    with open(os.path.join(SCHEMAS, name)) as f:
        schema = json.load(f)
    validator(schema).validate(doc)


def check_junit(path):
    r = subprocess.run(["xmllint", "--noout", "--schema",
                        os.path.join(SCHEMAS, "junit-10.xsd"), path],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr.strip()
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    tests = failures = 0
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        assert cases, f"suite {suite.get('name')} has no testcase"
        assert int(suite.get("tests")) == len(cases), suite.get("name")
        for c in cases:
            assert len(c.findall("failure")) <= 1, f"two failures in {c.get('name')}"
        failing = sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("failures")) == failing, suite.get("name")
        skipped = sum(1 for c in cases if c.find("skipped") is not None)
        assert int(suite.get("skipped")) == skipped, suite.get("name")
        tests += len(cases)
        failures += failing
    assert int(root.get("tests")) == tests, "testsuites tests"
    assert int(root.get("failures")) == failures, "testsuites failures"
    return len(root.findall("testsuite")), tests, failures


def sarif_uris(doc):
    for run in doc["runs"]:
        for base in run.get("originalUriBaseIds", {}).values():
            yield base["uri"]
        for r in run.get("results", []):
            for loc in r.get("locations", []):
                yield loc["physicalLocation"]["artifactLocation"]["uri"]


def main(kind, path):
    if kind == "junit":
        suites, tests, failures = check_junit(path)
        print(f"junit ok: {suites} suites, {tests} tests, {failures} failures")
        return
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))  # strict UTF-8
    if kind == "json":
        check_schema(doc, "distsec-result.schema.json")
        print(f"json ok: {len(doc['findings'])} findings")
    else:
        check_schema(doc, "sarif-schema-2.1.0.json", jsonschema.Draft4Validator)
        for uri in sarif_uris(doc):
            assert URI_REF.match(uri), f"not a URI reference: {uri!r}"
        print(f"sarif ok: {len(doc['runs'][0]['results'])} results")


if __name__ == "__main__":
    try:
        main(sys.argv[1], sys.argv[2])
    except (AssertionError, jsonschema.ValidationError, ValueError, ET.ParseError) as e:
        print(f"invalid {sys.argv[1]} report {sys.argv[2]}: {e}", file=sys.stderr)
        sys.exit(1)
