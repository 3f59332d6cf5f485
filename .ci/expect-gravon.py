#!/usr/bin/env python3
"""Asserts the verdicts of `arbiter check --format json` over ../shared/corpus/stratego-gravon.

Usage: expect-gravon.py JSON_FILE EXIT_CODE

Expected (issue 2; the records and their SOURCE.md):
- classic-2005.4-568.xml: stratego, 271 plies, recorded 1-0 flag-captured, outcome 1-0
  flag-captured on ply 271, no error or warning finding;
- classic-2015.2-2341.xml: stratego, all 362 plies, recorded 0-1 forfeit, outcome null (the
  board does not end it), no error or warning finding;
- classicfree-2005.5-4228.xml, classicfree-2005.5-459.xml, ultimate lightning-2005.5-4822.xml:
  not replayed (0 plies), exactly one error, unsupported-game; any other finding must be a
  record-defect warning (the ultimate lightning file has 4: two rescue moves, two file letters J);
- exit code 2 (rulings §5: unsupported-game makes the input unusable).
Anything else, including an unexpected file in the folder, fails. Infos are printed, not failed.
"""
import json
import os
import sys

EXPECTED = {
    "classic-2005.4-568.xml": {
        "game": "stratego", "plies": 271, "result": "1-0", "termination": "flag-captured",
        "outcome": {"result": "1-0", "reason": "flag-captured", "ply": 271},
    },
    "classic-2015.2-2341.xml": {
        "game": "stratego", "plies": 362, "result": "0-1", "termination": "forfeit",
        "outcome": None,
    },
}
UNSUPPORTED = {
    "classicfree-2005.5-4228.xml": 0,
    "classicfree-2005.5-459.xml": 0,
    "ultimate lightning-2005.5-4822.xml": 4,
}


def main() -> int:
    path, exit_code = sys.argv[1], int(sys.argv[2])
    problems = []
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: the JSON output cannot be read: {e}")
        return 1
    if exit_code != 2:
        problems.append(f"exit code {exit_code}, expected 2 (unsupported-game)")
    seen = set()
    for g in doc.get("games", []):
        name = os.path.basename(g.get("source", ""))
        seen.add(name)
        findings = g.get("findings", [])
        errors = [f["code"] for f in findings if f["severity"] == "error"]
        warnings = [f["code"] for f in findings if f["severity"] == "warning"]
        for f in findings:
            if f["severity"] == "info":
                print(f"  info {name}: {f['code']} (ply {f['ply']}): {f['message']}")
        if name in EXPECTED:
            want = EXPECTED[name]
            for key, value in want.items():
                if g.get(key) != value:
                    problems.append(f"{name}: {key} is {g.get(key)!r}, expected {value!r}")
            if errors or warnings:
                detail = "; ".join(f"{f['code']} (ply {f['ply']}): {f['message']}"
                                   for f in findings if f["severity"] != "info")
                problems.append(f"{name}: unexpected findings: {detail}")
        elif name in UNSUPPORTED:
            if errors != ["unsupported-game"]:
                problems.append(f"{name}: errors {errors}, expected exactly ['unsupported-game']")
            if warnings != ["record-defect"] * UNSUPPORTED[name]:
                problems.append(f"{name}: warnings {warnings}, expected "
                                f"{UNSUPPORTED[name]} record-defect")
            if g.get("plies") != 0 or g.get("outcome") is not None:
                problems.append(f"{name}: replayed ({g.get('plies')} plies), expected not judged")
        else:
            problems.append(f"{name}: not an expected file of the corpus")
    for name in sorted((set(EXPECTED) | set(UNSUPPORTED)) - seen):
        problems.append(f"{name}: no verdict in the output")
    s = doc.get("summary", {})
    if (s.get("files"), s.get("games"), s.get("plies"), s.get("errors")) != (5, 5, 633, 3):
        problems.append(f"summary {s}, expected 5 files, 5 games, 633 plies, 3 errors")
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print("  all 5 Gravon verdicts as expected: 568 1-0 flag-captured on ply 271; "
              "2341 362 plies clean, 0-1 forfeit; 3 x unsupported-game")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
