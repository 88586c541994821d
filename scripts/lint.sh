#!/usr/bin/env bash
# Lints Sources and Tests with swift-format (the toolchain's `swift format`) against .swift-format at the
# package root, and reports the violations: one `file:line:column: warning: [Rule] message` line each, then a
# count per rule and in all. Exit status: 0 with no violations, 1 with some, 2 when swift-format is missing.
#   scripts/lint.sh                 # Sources and Tests
#   scripts/lint.sh Sources/HLS     # only these files or folders
# Fix a file's formatting with `swift format format -i <file>` (the same configuration).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
    echo "lint: swift format is not available (it ships with the Swift 6 toolchain)" >&2
    exit 2
fi
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(Sources Tests)
report=$(swift format lint --recursive --parallel "${paths[@]}" 2>&1 | grep -E '^[^ ]+:[0-9]+:[0-9]+: ' | sort -u || true)
if [ -z "$report" ]; then
    echo "lint: no violations in ${paths[*]}"
    exit 0
fi
echo "$report"
echo
echo "$report" | grep -oE '\[[A-Za-z]+\]' | sort | uniq -c | sort -rn
echo "lint: $(echo "$report" | wc -l) violations in $(echo "$report" | cut -d: -f1 | sort -u | wc -l) files"
exit 1
