#!/usr/bin/env python3
"""Hostile values for the query parameters that have a grammar (issue 34).

schemathesis draws values from the description's schemas; outside a pattern it draws text
that is far from it, so it never sent `-262143-01-01`, which chrono's `%Y` reads and which
panicked the statistics and the audit log. This run sends values near the grammar instead:
signed and five-digit years, years just outside 2000-2100, days that do not exist, spaces,
other digits, ids at and past 10^18, paging values past i64, and random mutations of valid
values (seeded, so a run repeats).

For every GET of the description without path parameters, each such parameter is sent alone
with each value. The oracle:
  - no 5xx, and no connection closed without an answer (a panic does that);
  - a value that the parameter's pattern, enum or integer bounds do not allow answers 400
    with a German `message` (for a session without the right, 401/403 may come first);
  - a value they allow, or an empty one (commonly "not given"), answers 2xx, 304, 400 or 404
    (a rule the schema cannot state).

  fuzz_hostile.py <base-url> <session-cookie> <seed> [strict]
`strict`: the session has every right (admin), so a refused value must be exactly 400.
"""
import http.client
import json
import random
import re
import sys
import urllib.parse

DAYS = [
    "-262143-01-01", "-262143-01-02", "+262142-12-31", "262142-12-31", "-0001-01-01",
    "0000-01-01", "0001-01-01", "1969-12-31", "1999-12-31", "2101-01-01", "9999-12-31",
    "12026-11-01", "+2026-11-01", "-2026-11-01", " 2026-11-01", "2026-11-01 ", "2026-11-01\n",
    "2026-1-01", "2026-11-1", "26-11-01", "2026-02-29", "2026-02-30", "2026-13-01",
    "2026-00-10", "2026-11-00", "2026-11-31", "2026-11-01T00:00:00Z", "2026/11/01",
    "01.11.2026", "２０２６-11-01", "2026-11-01\u0000", "", " ", "-", "--", "2026--11-01",
]
IDS = [
    "0", "-1", "+1", " 1", "1 ", "00", "1.0", "1e3", "0x10", "999999999999999999",
    "1000000000000000000", "9223372036854775807", "9223372036854775808",
    "99999999999999999999999", "-9223372036854775808", "１", "1,2", "[1]", "",
]
INTEGERS = [
    "0", "-1", "+1", " 1", "1.5", "1e2", "NaN", "-0", "1001", "50", "51",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "99999999999999999999999", "", "١", "0x1",
]
WORDS = ["", " ", "ASC ", "asc\u0000", "ÄSC", "%", "\\", "'", "\"", "null", "a" * 300]


def mutations(rng, valid, count):
    """Random edits of a valid value: digits doubled or dropped, signs, odd characters."""
    pieces = ["-", "+", " ", "0", "9", "99999", ".", ":", "T", "Z", "\u0663", "\t", "%00"]
    out = []
    for _ in range(count):
        text = list(valid)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            action = rng.random()
            if action < 0.5:
                text.insert(at, rng.choice(pieces))
            elif text:
                del text[min(at, len(text) - 1)]
        out.append("".join(text))
    return out


def allowed(schema, value):
    """Whether the parameter's schema allows `value` (a query string's text)."""
    if "pattern" in schema:
        return re.search(schema["pattern"], value) is not None
    if "enum" in schema:
        return value in schema["enum"]
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "integer" in kinds:
        if not re.fullmatch(r"-?[0-9]+", value):
            return False
        number = int(value)
        low, high = schema.get("minimum"), schema.get("maximum")
        return (low is None or number >= low) and (high is None or number <= high) \
            and -2**63 <= number < 2**63
    return True


def values_for(name, schema, rng):
    pattern = schema.get("pattern", "")
    if "{4}-" in pattern:
        return DAYS + mutations(rng, "2026-11-01", 30)
    if "[1-9][0-9]" in pattern:
        return IDS + mutations(rng, "12", 15)
    if "enum" in schema:
        return WORDS + mutations(rng, str(schema["enum"][-1]), 10)
    kind = schema.get("type")
    if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
        return INTEGERS + mutations(rng, "20", 10)
    if pattern:
        return WORDS + mutations(rng, "x", 5)
    return []


def main():
    base, cookie, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    strict = len(sys.argv) > 4 and sys.argv[4] == "strict"
    rng = random.Random(seed)
    host = urllib.parse.urlsplit(base)
    doc = json.loads(get(host, "/api/openapi.json", cookie)[1])
    failures, sent = [], 0
    for path, item in sorted(doc["paths"].items()):
        op = item.get("get")
        if not isinstance(op, dict) or "{" in path or path.endswith("openapi.json"):
            continue
        for param in op.get("parameters", []):
            if param.get("in") != "query":
                continue
            schema = param.get("schema", {})
            for value in values_for(param["name"], schema, rng):
                query = urllib.parse.urlencode({param["name"]: value})
                target = f"{path}?{query}"
                sent += 1
                try:
                    status, body = get(host, target, cookie)
                except (OSError, http.client.HTTPException) as error:
                    failures.append(f"{target}: keine Antwort ({error!r})")
                    continue
                if status >= 500:
                    failures.append(f"{target}: {status} {body[:200]!r}")
                elif value and not allowed(schema, value):
                    refused = {400} if strict else {400, 401, 403}
                    if status not in refused:
                        failures.append(f"{target}: {status} statt 400 für einen Wert außerhalb der Beschreibung")
                    elif status == 400 and not german_message(body):
                        failures.append(f"{target}: 400 ohne deutsche Meldung {body[:200]!r}")
                elif status not in {200, 204, 304, 400, 401, 403, 404}:
                    failures.append(f"{target}: {status}")
    for failure in failures:
        print("   " + failure)
    print(f"   {sent} feindliche Werte gesendet, {len(failures)} Befunde")
    sys.exit(1 if failures else 0)


def german_message(body):
    try:
        message = json.loads(body).get("message", "")
    except (ValueError, AttributeError):
        return False
    words = ("muss", "darf", "ungültig", "Bitte", "nicht", "keine", "zwischen", "Datum")
    return isinstance(message, str) and any(word in message for word in words)


def get(host, target, cookie):
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    try:
        connection.request("GET", target, headers={"Cookie": f"ap_session={cookie}"})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


if __name__ == "__main__":
    main()
