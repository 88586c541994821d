#!/usr/bin/env bash
# `make demo`: record → preview → serve → inspect → simulate → summary, with the release binary.
# Run from anywhere; works on a repeat run (demo-out/warm-film is recorded afresh). The server is stopped on
# every exit path (trap), so nothing is left running, even when a step fails or you press Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

filterz="${FILTERZ:-.build/release/filterz}"
out=demo-out
video="$out/warm-film"
traces=(SampleMedia/traces/3g-norway-bus.json SampleMedia/traces/4g-belgium-foot.json)
trace_labels=(3G 4G)

[ -x "$filterz" ] || { echo "demo: $filterz not found; run 'make release' first" >&2; exit 2; }
for trace in "${traces[@]}"; do
  [ -f "$trace" ] || { echo "demo: trace $trace is missing from the checkout" >&2; exit 2; }
done

server_pid=""
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap stop_server EXIT
trap 'echo; echo "demo: interrupted" >&2; exit 130' INT TERM

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

rm -rf "$video" "$out"/report*.svg "$out"/report*.json "$out"/served-manifest.json "$out"/.serve.*
mkdir -p "$out"

step "1/6 filterz record: 20 s of the simulated camera through warm-film (default ladder, 2 s segments)"
"$filterz" record --preset warm-film --duration 20 --segment-duration 2 --out "$video"

step "2/6 filterz preview: before/after frame"
"$filterz" preview --preset warm-film -o "$video/preview.png"

step "3/6 filterz serve $out --port 0 (background)"
"$filterz" serve "$out" --port 0 --quiet >"$out/.serve.out" 2>"$out/.serve.err" &
server_pid=$!
base=""
for _ in $(seq 100); do
  base="$(head -n 1 "$out/.serve.out" 2>/dev/null || true)"
  [ -n "$base" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$out/.serve.err" >&2; echo "demo: the server did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "demo: the server printed no URL within 10 s" >&2; exit 1; }
base="${base%/}"
master="$base/v1/videos/warm-film/master.m3u8"
echo "serving at $base/ (pid $server_pid); master playlist $master"

step "4/6 filterz inspect --recursive $master"
"$filterz" inspect --recursive "$master"

step "5/6 filterz simulate over a 3G commute and a 4G walk (rotate to landscape at 8 s, pick 540p at 12 s)"
actions=(--viewport 390x844@3 --rotate 8:landscape --select 12:540p)
stream="$master"
qoe=()
for i in "${!traces[@]}"; do
  trace="${traces[$i]}" label="${trace_labels[$i]}"
  suffix=$([ "$i" = 0 ] && echo "" || echo "-$(echo "$label" | tr 'A-Z' 'a-z')")
  echo "-- $label: $trace"
  "$filterz" simulate "$stream" --trace "$trace" "${actions[@]}" --plot "$out/report$suffix.svg" | tee "$out/report$suffix.txt"
  "$filterz" simulate "$stream" --trace "$trace" "${actions[@]}" --json >"$out/report$suffix.json"
  qoe+=("$label: $(grep -m1 '^QoE_lin' "$out/report$suffix.txt" | tr -s ' ')")
done

step "6/6 stopping the server"
stop_server
echo "stopped"

segments=$(ls "$video" | grep -c -E '\.(ts|m4s)$' || true)
[ "$segments" -gt 0 ] || segments=$(find "$video" -name '*.ts' -o -name '*.m4s' | wc -l)
cat <<SUMMARY

== Done. What was made:
  $video/master.m3u8   HLS ladder: renditions, audio, ko/en subtitles, I-frame playlists ($segments media segment files)
  $video/preview.png   a camera frame before and after warm-film
  $video/poster.jpg    the poster the index page shows
  $out/report.svg, $out/report.json           simulated playback over ${traces[0]}
  $out/report-4g.svg, $out/report-4g.json     simulated playback over ${traces[1]}
Simulated QoE (rotate to landscape at 8 s, manual 540p at 12 s, 390x844@3 phone):
  ${qoe[0]}
  ${qoe[1]}
Serve it again and open it in a browser:
  $filterz serve $out --port 8080    # then open http://127.0.0.1:8080/
SUMMARY
