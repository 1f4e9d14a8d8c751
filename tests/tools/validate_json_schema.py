#!/usr/bin/python3
"""Validates gentle-ai's JSON outputs against the JSON Schemas of docs/schema/.

    /usr/bin/python3 validate_json_schema.py --schemas DIR [INSTANCE ...]

Run with Debian's /usr/bin/python3 and python3-jsonschema (scripts/install-deps.sh); a python3
elsewhere on PATH may lack the module.

1. Every `*.schema.json` in DIR must be a valid draft 2020-12 schema (check_schema, its patterns
   compiled, its `format`s checked) and follow the directory's conventions: `$schema` 2020-12,
   `$id` https://gentle-ai.dev/schema/<file name>, a `title` and a `description`; a schema named
   <X>.v<N>.schema.json pins `schema` to "gentle-ai.<X>/v<N>" (common.v1 and the in-toto
   Statement's have no `schema` member).
2. Each INSTANCE (a file holding one JSON document; a directory: every file below it, in name
   order) is parsed strictly (no duplicate key, no NaN or Infinity) and validated, with format
   checking (date-time as RFC 3339), against the schema its `schema` member names
   ("gentle-ai.review-start/v1" -> review-start.v1.schema.json), or, for an in-toto Statement
   (`_type` https://in-toto.io/Statement/v1) of predicate https://gentle-ai.dev/review-approval/v1,
   review-approval-statement.v1.schema.json.

Prints `ok <instance> <schema file>` for each valid instance on stdout and
`FAIL <file>: <JSON path>: <reason>` for every failure on stderr; exits 0 only when everything
is valid, 1 when something is not, 2 for a usage error.
"""

import argparse
import datetime
import json
import os
import re
import sys

import jsonschema

ID_PREFIX = "https://gentle-ai.dev/schema/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
APPROVAL_PREDICATE = "https://gentle-ai.dev/review-approval/v1"
STATEMENT_SCHEMA = "review-approval-statement.v1.schema.json"
NO_SCHEMA_MEMBER = {"common.v1.schema.json", STATEMENT_SCHEMA}
SCHEMA_ID = re.compile(r"^gentle-ai\.([a-z0-9-]+)/v([0-9]+)$")
# Alternatives that fail on these say least about what was meant (a null, a const "").
WEAK_VALIDATORS = {"type", "const", "enum"}
RFC3339 = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
                     r"(?:\.[0-9]+)?(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))$")


class Failures:
    def __init__(self):
        self.count = 0

    def add(self, where, path, reason):
        self.count += 1
        print(f"FAIL {where}: {path}: {reason}", file=sys.stderr)


def is_rfc3339(text):
    if not isinstance(text, str):
        return True  # formats apply to strings only
    m = RFC3339.match(text)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if m.group(7) is not None and (int(m.group(7)) > 23 or int(m.group(8)) > 59):
        return False
    return True


def format_checker():
    checker = jsonschema.FormatChecker()
    checker.checks("date-time")(is_rfc3339)
    return checker


def json_path(parts):
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else "." + str(part)
    return out


def strict_object(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {json.dumps(key)}")
        obj[key] = value
    return obj


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def load_strict(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    return json.loads(text, object_pairs_hook=strict_object, parse_constant=reject_constant)


def schema_file_for_id(schema_id):
    m = SCHEMA_ID.match(schema_id)
    return f"{m.group(1)}.v{m.group(2)}.schema.json" if m else None


def report_errors(failures, where, errors):
    for error in sorted(errors, key=lambda e: list(e.absolute_path)):
        reason = shorten(error.message)
        if error.context:
            # anyOf / oneOf: the alternative that got furthest says most.
            deepest = max(error.context, key=lambda e: (len(e.absolute_path),
                                                        e.validator not in WEAK_VALIDATORS))
            reason = (f"no alternative of {error.validator} holds; deepest: "
                      f"{json_path(deepest.absolute_path)}: {shorten(deepest.message)}")
        failures.add(where, json_path(error.absolute_path), reason)


def shorten(message, limit=300):
    return message if len(message) <= limit else message[:limit] + "..."


def compile_patterns(failures, where, node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                try:
                    re.compile(value)
                except re.error as e:
                    failures.add(where, json_path(path + (key,)), f"pattern does not compile: {e}")
            compile_patterns(failures, where, value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            compile_patterns(failures, where, value, path + (i,))


def check_conventions(failures, where, name, schema):
    if schema.get("$schema") != DRAFT:
        failures.add(where, "$.$schema", f"must be {DRAFT}")
    if schema.get("$id") != ID_PREFIX + name:
        failures.add(where, "$.$id", f"must be {ID_PREFIX + name}")
    for member in ("title", "description"):
        if not isinstance(schema.get(member), str) or not schema[member]:
            failures.add(where, "$." + member, "missing")
    if name in NO_SCHEMA_MEMBER:
        return
    m = re.match(r"^([a-z0-9-]+)\.v([0-9]+)\.schema\.json$", name)
    expected = f"gentle-ai.{m.group(1)}/v{m.group(2)}" if m else None
    pinned = schema.get("properties", {}).get("schema", {}).get("const")
    if expected is None or pinned != expected:
        failures.add(where, "$.properties.schema.const", f"must be {json.dumps(expected)}")
    if "schema" not in schema.get("required", []):
        failures.add(where, "$.required", "must require \"schema\"")


def load_schemas(failures, directory, checker):
    schemas = {}
    names = sorted(n for n in os.listdir(directory) if n.endswith(".schema.json"))
    meta = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA,
                                           format_checker=checker)
    for name in names:
        path = os.path.join(directory, name)
        try:
            schema = load_strict(path)
        except (OSError, ValueError) as e:
            failures.add(path, "$", f"not a JSON document: {e}")
            continue
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            failures.add(path, json_path(e.absolute_path), f"not a valid schema: {e.message}")
            continue
        report_errors(failures, path, meta.iter_errors(schema))
        compile_patterns(failures, path, schema)
        check_conventions(failures, path, name, schema)
        schemas[name] = schema
    return schemas


def instance_files(arguments):
    for argument in arguments:
        if os.path.isdir(argument):
            for root, dirs, files in os.walk(argument):
                dirs.sort()
                for name in sorted(files):
                    yield os.path.join(root, name)
        else:
            yield argument


def choose_schema(document):
    if not isinstance(document, dict):
        return None, "not a JSON object"
    if "schema" in document:
        schema_id = document["schema"]
        name = schema_file_for_id(schema_id) if isinstance(schema_id, str) else None
        if name is None:
            return None, f"schema member {json.dumps(schema_id)} is not gentle-ai.<name>/v<N>"
        return name, None
    if document.get("_type") == STATEMENT_TYPE:
        if document.get("predicateType") == APPROVAL_PREDICATE:
            return STATEMENT_SCHEMA, None
        return None, "an in-toto Statement of another predicate type"
    return None, "no schema member and not an in-toto Statement"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemas", required=True, help="the directory of *.schema.json files")
    parser.add_argument("instances", nargs="*", help="JSON files, or directories of them")
    args = parser.parse_args()
    if not os.path.isdir(args.schemas):
        print(f"validate_json_schema: --schemas {args.schemas} is not a directory", file=sys.stderr)
        return 2

    failures = Failures()
    checker = format_checker()
    schemas = load_schemas(failures, args.schemas, checker)
    store = {ID_PREFIX + name: schema for name, schema in schemas.items()}
    for path in instance_files(args.instances):
        try:
            document = load_strict(path)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            failures.add(path, "$", f"not one JSON document: {e}")
            continue
        name, why = choose_schema(document)
        if name is None:
            failures.add(path, "$", why)
            continue
        if name not in schemas:
            failures.add(path, "$.schema", f"no schema file {name} in {args.schemas}")
            continue
        schema = schemas[name]
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        validator = jsonschema.Draft202012Validator(schema, resolver=resolver,
                                                    format_checker=checker)
        errors = list(validator.iter_errors(document))
        if errors:
            report_errors(failures, path, errors)
        else:
            print(f"ok {path} {name}")
    return 1 if failures.count else 0


if __name__ == "__main__":
    sys.exit(main())
