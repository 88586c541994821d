#!/usr/bin/env bash
# Fuzzes the HLS playlist parser (Fuzz/PlaylistFuzzer.swift) with libFuzzer for FUZZ_SECONDS (default 60).
#   scripts/fuzz.sh [seconds]      exit 0: no crash; non-zero: a crash, its input is in .build/fuzz/artifacts/
# Built with swiftc directly (Sources/HLS + the entry point as one module), so Package.swift and a normal
# `swift build` are untouched. Seeds: ../shared/corpus/playlists (or $FILTERZ_SHARED/corpus/playlists),
# SampleMedia/playlists and the HLS test fixtures; new interesting inputs go to .build/fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
work=.build/fuzz
binary="$work/fuzz-playlist"
mkdir -p "$work/corpus" "$work/artifacts"

sources=(Sources/HLS/*.swift Sources/HLS/*/*.swift Sources/HLS/*/*/*.swift Fuzz/PlaylistFuzzer.swift)
existing=()
for f in "${sources[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ ! -x "$binary" ] || [ -n "$(find "${existing[@]}" -newer "$binary" 2>/dev/null | head -1)" ]; then
  echo "fuzz: compiling $binary (${#existing[@]} files, -sanitize=fuzzer,address -O)"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name HLSFuzz "${existing[@]}" -o "$binary"
fi

shared="${FILTERZ_SHARED:-../shared}"
seeds=("$work/corpus")
[ -d "$shared/corpus/playlists" ] && seeds+=("$shared/corpus/playlists") \
  || echo "fuzz: $shared/corpus/playlists not found; seeding from SampleMedia and test fixtures only"
[ -d SampleMedia/playlists ] && seeds+=(SampleMedia/playlists)
[ -d Tests/HLSTests/Fixtures ] && seeds+=(Tests/HLSTests/Fixtures)

echo "fuzz: running for ${seconds}s (seeds: ${seeds[*]})"
export SWIFT_BACKTRACE=enable=no
set +e
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -dict=Fuzz/hls.dict -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${seeds[@]}" 2>&1 \
  | awk '/Recommended dictionary/ { skip = 1 } !skip && !/^\tNEW_FUNC/ && !/^#[0-9]+[ \t]+(NEW|REDUCE|pulse)/ { print } /End of recommended dictionary/ { skip = 0 }'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED (exit $status); crashing inputs:" >&2
  ls -1 "$work/artifacts" >&2
  exit "$status"
fi
echo "fuzz: no crash in ${seconds}s"
