#!/usr/bin/env bash
# Fuzzes a parser with libFuzzer for FUZZ_SECONDS (default 60):
#   scripts/fuzz.sh [seconds] [playlist|photo-metadata|server-playlist|stream-audit]
#     playlist (default)  the HLS playlist parser, validator, writer and WebVTT reader (Fuzz/PlaylistFuzzer.swift)
#     photo-metadata      the EXIF/TIFF, JPEG segment, PNG chunk, ICC and XMP readers and writers (Fuzz/PhotoMetadataFuzzer.swift)
#     server-playlist     what `serve` makes of a playlist and a player's LL-HLS query: blocking reloads, holds,
#                         delta updates, cache rules, token rewriting, dates and ranges (Fuzz/ServerPlaylistFuzzer.swift)
#     stream-audit        inspect --deep's MP4 box, NAL unit, SPS and AAC readers and its rules (Fuzz/StreamAuditFuzzer.swift)
#   exit 0: no crash; non-zero: a crash, its input is in .build/fuzz[-<target>]/artifacts/
# Built with swiftc directly (the module's sources + the entry point as one module), so Package.swift and a normal
# `swift build` are untouched. Playlist seeds: ../shared/corpus/playlists (or $FILTERZ_SHARED/corpus/playlists),
# SampleMedia/playlists and the HLS test fixtures; photo seeds: SampleMedia/photos. New interesting inputs go to
# the work folder's corpus; stream-audit starts from its dictionary (box types, start codes) and its corpus alone.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
target="${2:-playlist}"

case "$target" in
  playlist)
    work=.build/fuzz
    binary="$work/fuzz-playlist"
    module=HLSFuzz
    sources=(Sources/HLS/*.swift Sources/HLS/*/*.swift Sources/HLS/*/*/*.swift Fuzz/PlaylistFuzzer.swift)
    libraries=(JSON Notation)
    dictionary=Fuzz/hls.dict
    ;;
  photo-metadata)
    work=.build/fuzz-photo-metadata
    binary="$work/fuzz-photo-metadata"
    module=PhotoMetadataFuzz
    sources=(Sources/PhotoMetadata/*.swift Sources/PhotoMetadata/*/*.swift Fuzz/PhotoMetadataFuzzer.swift)
    libraries=(JSON)
    dictionary=Fuzz/photo-metadata.dict
    ;;
  server-playlist)
    # The pure files of Sources/Server only: the rest imports C modules (sockets, libcrypto, zlib).
    work=.build/fuzz-server-playlist
    binary="$work/fuzz-server-playlist"
    module=ServerPlaylistFuzz
    sources=(Sources/Server/LowLatency/*.swift Sources/Server/Playlists/PlaylistFacts*.swift
      Sources/Server/Playlists/TokenBodies.swift Sources/Server/HTTP/{CachePolicy,RequestRefusal,HTTPDate}.swift
      Sources/Server/HTTP/{Validators,ByteRangeAnswer,Substring+HeaderText,HTTPResponse}.swift
      Sources/Server/Files/{FileKind,FileStamp,OpenFile}.swift Sources/Server/Handler/HandlerAnswer.swift
      Sources/Server/Signing/{TokenRewriter,SameVideoReference}.swift Sources/Server/Catalogue/CatalogueURLs.swift
      Fuzz/ServerPlaylistFuzzer.swift)
    libraries=(JSON Notation HLS)
    dictionary="$work/server-playlist.dict"  # the playlist keywords and the query's (made below)
    ;;
  stream-audit)
    work=.build/fuzz-stream-audit
    binary="$work/fuzz-stream-audit"
    module=StreamAuditFuzz
    sources=(Sources/StreamAudit/*/*.swift Fuzz/StreamAuditFuzzer.swift)
    libraries=(JSON Notation HLS)
    dictionary=Fuzz/stream-audit.dict
    ;;
  *)
    echo "usage: scripts/fuzz.sh [seconds] [playlist|photo-metadata|server-playlist|stream-audit]" >&2
    exit 2
    ;;
esac
mkdir -p "$work/corpus" "$work/artifacts" "$work/modules"
[ "$target" != server-playlist ] || cat Fuzz/hls.dict Fuzz/server-query.dict >"$dictionary"

own=()
for f in "${sources[@]}"; do [ -f "$f" ] && own+=("$f"); done
existing=("${own[@]}")
for library in "${libraries[@]}"; do mapfile -t -O "${#existing[@]}" existing < <(find Sources/"$library" -name '*.swift'); done
if [ ! -x "$binary" ] || [ -n "$(find "${existing[@]}" -newer "$binary" 2>/dev/null | head -1)" ]; then
  # Modules the fuzzed one imports (Package.swift's dependencies) become static libraries first, each seeing
  # the ones before it; one is compiled again when a source of it, or of one before it, changed. A static
  # library is linked before those it needs.
  linking=()
  stale=
  for library in "${libraries[@]}"; do
    mapfile -t library_sources < <(find Sources/"$library" -name '*.swift' | sort)
    archive="$work/lib$library.a"
    if [ -n "$stale" ] || [ ! -f "$archive" ] || [ -n "$(find "${library_sources[@]}" -newer "$archive" | head -1)" ]; then
      stale=1
      echo "fuzz: compiling the module $library"
      swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$library" -emit-library -static \
        -I "$work/modules" -emit-module -emit-module-path "$work/modules/$library.swiftmodule" "${library_sources[@]}" \
        -o "$archive"
    fi
    linking=(-l"$library" "${linking[@]}")
  done
  [ ${#libraries[@]} -eq 0 ] || linking=(-I "$work/modules" -L "$work" "${linking[@]}")
  echo "fuzz: compiling $binary (${#own[@]} files, -sanitize=fuzzer,address -O)"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$module" "${linking[@]}" \
    "${own[@]}" -o "$binary"
fi

seeds=("$work/corpus")
if [ "$target" = playlist ] || [ "$target" = server-playlist ]; then
  shared="${FILTERZ_SHARED:-../shared}"
  [ -d "$shared/corpus/playlists" ] && seeds+=("$shared/corpus/playlists") \
    || echo "fuzz: $shared/corpus/playlists not found; seeding from SampleMedia and test fixtures only"
  [ -d SampleMedia/playlists ] && seeds+=(SampleMedia/playlists)
  [ -d Tests/HLSTests/Fixtures ] && seeds+=(Tests/HLSTests/Fixtures)
elif [ "$target" = photo-metadata ]; then
  [ -d SampleMedia/photos ] && seeds+=(SampleMedia/photos)
fi

echo "fuzz: running $target for ${seconds}s (seeds: ${seeds[*]})"
export SWIFT_BACKTRACE=enable=no
set +e
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -dict="$dictionary" -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${seeds[@]}" 2>&1 \
  | awk '/Recommended dictionary/ { skip = 1 } !skip && !/^\tNEW_FUNC/ && !/^#[0-9]+[ \t]+(NEW|REDUCE|pulse)/ { print } /End of recommended dictionary/ { skip = 0 }'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED (exit $status); crashing inputs:" >&2
  ls -1 "$work/artifacts" >&2
  exit "$status"
fi
echo "fuzz: no crash in ${seconds}s ($target)"
