#!/usr/bin/env python3
"""Every route of signal-cli-rest-api, as the API document bundled with PyPI's signalbot lists it, tried against
`parley rest-api`: each must be served — answered, refused with signal-cli-rest-api's {"error": …}, or 501 for what
Parley has no counterpart of — never an unserved 404, a 5xx other than 501, or a non-JSON error.

Run by Tests/ParleyServerIntegrationTests/SignalCLICompatibilityTests.swift:
  rest_api_routes.py HOST:PORT +NUMBER
This checks that each route is served and answers in the API's error shape; what the routes do is checked by the
test's own requests. Path parameters other than the served account name nothing that exists (an unknown group,
attachment, device and person), bodies are empty, and the one route that would change the account with an empty body
(`DELETE …/pin`, which deletes the identity backup) is called for an account this server does not serve. Prints one
line per route that fails, then `ROUTES <n> FAILED <m>`; exits 1 when any failed.
"""
import http.client
import json
import pathlib
import re
import sys

import signalbot

service, number = sys.argv[1], sys.argv[2]
host, port = service.rsplit(":", 1)
schema_file = pathlib.Path(signalbot.__file__).parent / "_generated" / "json_schema" / "signal-cli-rest-api.json"
document = json.loads(schema_file.read_text())

# Values for path parameters: the served account, and names of things that do not exist.
values = {"number": number, "groupid": "group.bm90LWEtZ3JvdXA=", "attachment": "unknown_1", "uuid": "+19999999999",
          "numberToTrust": "+19999999999", "deviceId": "99", "token": "123456"}

# Routes that change the served account even with an empty body: called for an account that is not served.
destructive = {("delete", "/v1/accounts/{number}/pin")}

failed = 0
routes = 0
for path, operations in sorted(document["paths"].items()):
    for method in sorted(operations):
        routes += 1
        names = dict(values, number="+19999999998") if (method, path) in destructive else values
        concrete = re.sub(r"\{(\w+)\}", lambda match: names.get(match.group(1), "x"), path)
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        body = b"" if method == "get" else b"{}"
        connection.request(method.upper(), concrete, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read()
        connection.close()
        problem = None
        if response.status >= 500 and response.status != 501:
            problem = "a server error"
        elif response.status >= 400:
            try:
                answer = json.loads(text)
                if not isinstance(answer, dict) or not answer.get("error"):
                    problem = "an error without signal-cli-rest-api's {\"error\": …}"
            except ValueError:
                problem = "unserved (no JSON error)"
        if problem:
            failed += 1
            print(f"FAIL {method.upper()} {path} -> {response.status} {problem}: {text[:200]!r}", flush=True)

print(f"ROUTES {routes} FAILED {failed}", flush=True)
sys.exit(1 if failed else 0)
