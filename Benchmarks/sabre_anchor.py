#!/usr/bin/env python3
"""Runs Sabre (UMass-LIDS/sabre, the Python simulator that produced `shared/reference/`) on the bench's own
manifest and traces, for `filterz-bench simulate --sabre FILE`, where FILE is Sabre's `src/sabre.py`.

Sabre is not part of Filterz and is not copied here: bring your own checkout (the shared reference numbers were
made at commit 09b03bb). It is a command-line program with its state in module globals, so each session runs
its whole unmodified source once, as `python3 sabre.py -m MANIFEST -n TRACE -b BUFFER -a RULE` would, but in
this one interpreter: the figure is Sabre's simulation (argument parsing, reading the two JSON files, the
session), without the interpreter's start-up.

    sabre_anchor.py SABRE_PY INPUT.json --check [--no-abandon]
        one JSON line per trace: the level of each segment (from Sabre's -v log) and the rebuffering
    sabre_anchor.py SABRE_PY INPUT.json --bench SECONDS [--no-abandon]
        sessions round-robin over the traces for SECONDS of CPU time, output to /dev/null, after one untimed
        session whose summary is checked; one JSON line with sessions per CPU second

INPUT is `reference_simulator.py`'s input (manifest in Sabre's movie format, traces as in
`shared/traces/FORMAT.md`, rule, buffer). `--no-abandon` passes Sabre's `-noa`: downloads are never abandoned,
which is the model of docs/SIMULATION.md (Sabre's default checks every 50 ms of a download whether to abandon it).
"""

import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time

# Sabre's flags for our rule names: BOLA basic with its throughput cap (`-ab`), as the shared reference ran it.
SABRE_FLAGS = {"bola": ["-a", "bola", "-ab"], "throughput": ["-a", "throughput"]}


# A segment's line in Sabre's -v log: "[start-end]  index: q=level ..." (an abandoned download is followed by a
# later line for the same index, which replaces it).
SEGMENT_LINE = re.compile(r"^\[\d+-\d+\]  (\d+): q=(\d+) ")
REBUFFER_LINE = re.compile(r"^total rebuffer: ([-\d.]+)$", re.MULTILINE)

USAGE = "usage: sabre_anchor.py SABRE_PY INPUT.json (--check | --bench SECONDS) [--no-abandon]\n"


def main(argv):
    arguments = argv[1:]
    no_abandon = "--no-abandon" in arguments
    if no_abandon:
        arguments.remove("--no-abandon")
    modes = {"--check": 3, "--bench": 4}  # the argument count of each
    if len(arguments) < 3 or modes.get(arguments[2]) != len(arguments):
        sys.stderr.write(USAGE)
        return 2
    sabre_path, input_path, mode = arguments[:3]
    with open(input_path, encoding="utf-8") as f:
        job = json.load(f)
    if job["rule"] not in SABRE_FLAGS:
        sys.stderr.write("rule %r has no Sabre equivalent here\n" % job["rule"])
        return 2
    with open(sabre_path, encoding="utf-8") as f:
        code = compile(f.read(), sabre_path, "exec")

    with tempfile.TemporaryDirectory(prefix="filterz-sabre-") as folder:
        manifest_path = os.path.join(folder, "manifest.json")
        with open(manifest_path, "w", encoding="utf-8") as f:
            json.dump(job["manifest"], f)
        trace_paths = []
        for index, trace in enumerate(job["traces"]):
            path = os.path.join(folder, "trace-%d.json" % index)
            with open(path, "w", encoding="utf-8") as f:
                json.dump(trace["samples"], f)  # Sabre's network file: the list of periods alone
            trace_paths.append(path)
        common = ["-m", manifest_path, "-b", str(job.get("buffer_s", 60))] + SABRE_FLAGS[job["rule"]]
        if no_abandon:
            common.append("-noa")

        def session(trace_path, output, verbose=False):
            saved = sys.argv
            sys.argv = [sabre_path] + common + ["-n", trace_path] + (["-v"] if verbose else [])
            try:
                with contextlib.redirect_stdout(output):
                    exec(code, {"__name__": "__main__", "__file__": sabre_path})
            finally:
                sys.argv = saved

        def logged_session(trace_path, verbose=False):
            """Sabre's log of one session and its total rebuffering, or None (with a message) if it has no summary."""
            captured = io.StringIO()
            session(trace_path, captured, verbose)
            log = captured.getvalue()
            rebuffer = REBUFFER_LINE.search(log)
            if rebuffer is None:
                sys.stderr.write("%s printed no session summary; is it Sabre's src/sabre.py?\n" % sabre_path)
                return None
            return log, float(rebuffer.group(1))

        if mode == "--check":
            for trace, path in zip(job["traces"], trace_paths):
                result = logged_session(path, verbose=True)
                if result is None:
                    return 1
                levels = {}
                for line in result[0].splitlines():
                    match = SEGMENT_LINE.match(line)
                    if match:
                        levels[int(match.group(1))] = int(match.group(2))
                print(json.dumps({"trace": trace["name"], "levels": [levels[k] for k in sorted(levels)],
                                  "rebuffer_s": result[1]}))
            return 0

        # One session untimed (imports warm), whose summary shows Sabre really simulated it.
        if logged_session(trace_paths[0]) is None:
            return 1
        seconds = float(arguments[3])
        sessions = 0
        with open(os.devnull, "w") as devnull:
            start = time.process_time()
            while True:
                session(trace_paths[sessions % len(trace_paths)], devnull)
                sessions += 1
                elapsed = time.process_time() - start
                if elapsed >= seconds:
                    break
    print(json.dumps({"rule": job["rule"], "sessions": sessions, "cpu_s": elapsed,
                      "sessions_per_s": sessions / elapsed}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
