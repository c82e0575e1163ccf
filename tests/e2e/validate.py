#!/usr/bin/env python3
"""Validates distsec reports: validate.py json|sarif|junit FILE.

json and sarif are checked against the JSON Schemas in tests/schema with
python3-jsonschema; every SARIF URI is also checked to be an RFC 3986
reference; junit is parsed with xml.etree and its counts cross-checked.
Prints one line of counts on success, exits 1 with the reason otherwise."""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema")
URI_REF = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:)?([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-F]{2})*$")


def check_schema(doc, name):
    with open(os.path.join(SCHEMAS, name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator(schema).validate(doc)


def sarif_uris(doc):
    for run in doc["runs"]:
        for base in run.get("originalUriBaseIds", {}).values():
            yield base["uri"]
        for r in run.get("results", []):
            for loc in r.get("locations", []):
                yield loc["physicalLocation"]["artifactLocation"]["uri"]


def main(kind, path):
    if kind == "junit":
        root = ET.parse(path).getroot()
        assert root.tag == "testsuites", root.tag
        total = 0
        for suite in root.findall("testsuite"):
            cases = suite.findall("testcase")
            assert int(suite.get("tests")) == len(cases), suite.get("name")
            failing = sum(1 for c in cases if c.find("failure") is not None)
            assert int(suite.get("failures")) == failing, suite.get("name")
            total += sum(len(c.findall("failure")) for c in cases)
        assert int(root.get("failures")) == total, "testsuites failures"
        print(f"junit ok: {len(root.findall('testsuite'))} suites, {total} failures")
        return
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))  # strict UTF-8
    if kind == "json":
        check_schema(doc, "distsec-result.schema.json")
        print(f"json ok: {len(doc['findings'])} findings")
    else:
        check_schema(doc, "sarif-2.1.0-subset.schema.json")
        for uri in sarif_uris(doc):
            assert URI_REF.match(uri), f"not a URI reference: {uri!r}"
        print(f"sarif ok: {len(doc['runs'][0]['results'])} results")


if __name__ == "__main__":
    try:
        main(sys.argv[1], sys.argv[2])
    except (AssertionError, jsonschema.ValidationError, ValueError, ET.ParseError) as e:
        print(f"invalid {sys.argv[1]} report {sys.argv[2]}: {e}", file=sys.stderr)
        sys.exit(1)
