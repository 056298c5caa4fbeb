#!/usr/bin/env python3
"""ctest_costs.py BUILD: writes tests/ctest_costs.txt from BUILD's last full ctest run.

ctest -j starts the costliest tests first when it knows the costs (Testing/Temporary/
CTestCostData.txt of a previous run in the build tree); a fresh tree, as in CI, knows none and
runs the tests in the order they were added, so a long test may start last and run alone at
the end, and every RUN_SERIAL test met in between makes the other core wait for the running
test to end. tests/CMakeLists.txt copies this snapshot into a fresh build tree. The tests that
run alone get 10,000 s more than they took, so they come first, one after the other, and the
others then fill both cores longest first. Run it after a full `make test`; a test missing from
the snapshot costs 0 (runs last) until the snapshot is renewed.
"""
import json, os, subprocess, sys

build = sys.argv[1] if len(sys.argv) > 1 else "build"
costs = {}
for line in open(os.path.join(build, "Testing/Temporary/CTestCostData.txt")):
    if line.startswith("---"):
        break
    name, runs, cost = line.split()
    if int(runs) > 0:
        costs[name] = float(cost)
shown = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                                  capture_output=True, text=True).stdout)
serial = {t["name"] for t in shown["tests"]
          for p in t.get("properties", []) if p["name"] == "RUN_SERIAL" and p["value"]}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ctest_costs.txt")
with open(out, "w") as f:
    for t in shown["tests"]:
        if t["name"] in costs:
            c = costs[t["name"]] + (10000 if t["name"] in serial else 0)
            f.write("%s 1 %.2f\n" % (t["name"], c))
    f.write("---\n")
print("%s: %d tests, %d run alone" % (out, sum(1 for t in shown["tests"] if t["name"] in costs),
                                      len(serial)))
