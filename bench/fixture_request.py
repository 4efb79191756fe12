#!/usr/bin/env python3
"""Writes the engine request of a render fixture for one target to stdout.

usage: fixture_request.py fixtures/render/<case>/case.json <html|mjml|react-email>
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    case_path, target = sys.argv[1], sys.argv[2]
    with open(case_path, encoding="utf-8") as file:
        case = json.load(file)
    request = {"template": case["template"], "target": target}
    for key in ("dynamic_data", "options"):
        if key in case:
            request[key] = case[key]
    json.dump(request, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
