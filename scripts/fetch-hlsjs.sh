#!/usr/bin/env bash
# Puts hls.js 1.6 (an ES module, for tests and benchmarks only, never shipped) at .build/test-assets/hls.mjs,
# taken from the pinned gradio wheel on PyPI. Does nothing when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/test-assets/hls.mjs
[ -s "$target" ] && exit 0
mkdir -p .build/test-assets
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "make deps: fetching hls.js from gradio==6.31.0 (PyPI)"
python3 -m pip download -q --disable-pip-version-check --no-deps gradio==6.31.0 -d "$work"
python3 - "$work"/gradio-6.31.0-py3-none-any.whl "$target" <<'PY'
import re, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if re.fullmatch(r"gradio/templates/frontend/assets/hls-[^/]+\.js", n)]
    if len(names) != 1:
        sys.exit(f"expected one hls-*.js in the wheel, found {names}")
    source = archive.read(names[0]).decode()
if "1.6." not in source or "isSupported" not in source:
    sys.exit("the wheel's hls-*.js is not hls.js 1.6")
open(target + ".tmp", "w").write(source)
PY
mv "$target.tmp" "$target"
