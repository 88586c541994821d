#!/usr/bin/env python3
"""Writes the simulator's movie-manifest JSON for an HLS stream served over HTTP (demo fallback).

    scripts/hls-manifest.py http://127.0.0.1:PORT/v1/videos/ID/master.m3u8 > manifest.json

Used by scripts/demo.sh only while `filterz simulate` cannot read an http:// master playlist itself: the
bitrates are the variants' BANDWIDTH, the resolutions their RESOLUTION, and the per-segment sizes the real
bytes the server sends (BYTERANGE lengths, else HTTP HEAD Content-Length), so the simulation still runs on
the served stream.
"""
import json
import re
import sys
import urllib.parse
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def size_of(url):
    request = urllib.request.Request(url, method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.headers["Content-Length"])


def attributes(text):
    return {m.group(1): m.group(2).strip('"') for m in re.finditer(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', text)}


def main(master_url):
    variants, lines = [], fetch(master_url).splitlines()
    for index, line in enumerate(lines):
        if line.startswith("#EXT-X-STREAM-INF:"):
            attrs = attributes(line.split(":", 1)[1])
            uri = next(l for l in lines[index + 1:] if l and not l.startswith("#"))
            variants.append((int(attrs["BANDWIDTH"]), attrs.get("RESOLUTION"), urllib.parse.urljoin(master_url, uri)))
    variants.sort()
    durations, sizes = [], []
    for _, _, url in variants:
        level_durations, level_sizes, pending_range = [], [], None
        for line in fetch(url).splitlines():
            if line.startswith("#EXTINF:"):
                level_durations.append(float(line[8:].split(",")[0]))
            elif line.startswith("#EXT-X-BYTERANGE:"):
                pending_range = int(line[17:].split("@")[0])
            elif line and not line.startswith("#"):
                level_sizes.append(8 * (pending_range or size_of(urllib.parse.urljoin(url, line))))
                pending_range = None
        durations.append(level_durations)
        sizes.append(level_sizes)
    count = min(len(s) for s in sizes)
    mean_duration = sum(durations[0][:count]) / count
    manifest = {
        "segment_duration_ms": round(mean_duration * 1000, 3),
        "bitrates_kbps": [bandwidth / 1000 for bandwidth, _, _ in variants],
        "segment_sizes_bits": [[sizes[level][segment] for level in range(len(variants))] for segment in range(count)],
    }
    if all(resolution for _, resolution, _ in variants):
        manifest["resolutions"] = [resolution for _, resolution, _ in variants]
    json.dump(manifest, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: hls-manifest.py MASTER_URL")
    main(sys.argv[1])
