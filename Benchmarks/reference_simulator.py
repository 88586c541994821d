#!/usr/bin/env python3
"""Reference ABR simulator in plain Python (standard library only), written for Filterz from the model in
README.md ("Simulation": one download at a time, latency then the bits integrated over a looping trace,
the buffer drains in real time, stalls, idling at the buffer cap, a start-up threshold) and the definitions of
our `throughput` and `bola` rules. It is an independent second implementation of `SessionSimulator`:

* `filterz-bench simulate` times it in the same run as our Swift loop (the benchmark's anchor: the machine is
  shared, so a ratio to a figure measured elsewhere says little);
* `SimulationTests` checks it plays the same levels, and QoE_lin to 1e-6, as `SessionSimulator`.

It is written the way a reference simulator is: a class per concept, clear before fast. Do not optimise it.

Input: one JSON file
    {"manifest": {"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"},   (Sabre's movie format)
     "traces": [{"name", "samples": [{"duration_ms", "bandwidth_kbps", "latency_ms"}, ...]}, ...],
     "rule": "throughput" | "bola", "buffer_s": 60, "startup_s": null}

    reference_simulator.py INPUT --check          one JSON line per trace: levels, QoE_lin, rebuffering
    reference_simulator.py INPUT --bench SECONDS  sessions round-robin over the traces for SECONDS of CPU
                                                  time; one JSON line with sessions per CPU second
"""

import json
import math
import sys
import time

REBUFFER_PENALTY = 4.3  # QoE_lin: per second of rebuffering


def round_half_away(x):
    """Nearest integer, halves away from zero (Swift's `rounded()`; Python's round() rounds halves to even)."""
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return int(math.copysign(whole, x))


class Manifest:
    """The ladder and the size of every segment at every level (bits; the player knows whole bytes)."""

    def __init__(self, obj):
        self.segment_ms = float(obj["segment_duration_ms"])
        self.bitrates_kbps = [float(b) for b in obj["bitrates_kbps"]]
        self.sizes_bits = [[float(s) for s in row] for row in obj["segment_sizes_bits"]]
        self.sizes_bytes = [[round_half_away(s / 8) for s in row] for row in self.sizes_bits]
        # What a rule plans with: the nominal rate in whole bit/s.
        self.rates_bps = [float(round_half_away(b * 1000)) for b in self.bitrates_kbps]

    @property
    def segment_count(self):
        return len(self.sizes_bits)


class Period:
    def __init__(self, duration_ms, bandwidth_kbps, latency_ms):
        self.duration_ms = float(duration_ms)
        self.bandwidth_kbps = float(bandwidth_kbps)  # = bits per millisecond
        self.latency_ms = float(latency_ms)


class Trace:
    """Periods of constant bandwidth and latency; looped when exhausted. Empty periods are dropped."""

    def __init__(self, obj):
        self.name = obj.get("name", "trace")
        samples = [Period(s["duration_ms"], s["bandwidth_kbps"], s["latency_ms"]) for s in obj["samples"]]
        if not any(p.duration_ms > 0 and p.bandwidth_kbps > 0 for p in samples):
            raise ValueError("trace %s can never deliver a byte" % self.name)
        self.periods = [p for p in samples if p.duration_ms > 0]


class Network:
    """Virtual time on a looping trace. A request waits one latency, consumed at 1/latency per ms of the period
    in force (so it may cross a boundary); then its bits flow at the bandwidth of the periods that follow."""

    def __init__(self, trace):
        self.periods = trace.periods
        self.index = 0
        self.time_to_next = self.periods[0].duration_ms
        self.now_ms = 0.0

    def next_period(self):
        self.index = (self.index + 1) % len(self.periods)
        self.time_to_next = self.periods[self.index].duration_ms

    def wait_latency(self):
        units = 1.0
        total = 0.0
        while units > 0:
            latency = self.periods[self.index].latency_ms
            needed = units * latency
            if needed <= self.time_to_next:
                total += needed
                self.now_ms += needed
                self.time_to_next -= needed
                units = 0.0
            else:
                total += self.time_to_next
                self.now_ms += self.time_to_next
                units -= self.time_to_next / latency
                self.next_period()
        return total

    def transfer(self, bits):
        left = bits
        total = 0.0
        while left > 0:
            bandwidth = self.periods[self.index].bandwidth_kbps
            if left <= self.time_to_next * bandwidth:
                needed = left / bandwidth
                total += needed
                self.now_ms += needed
                self.time_to_next -= needed
                left = 0.0
            else:
                total += self.time_to_next
                self.now_ms += self.time_to_next
                left -= self.time_to_next * bandwidth
                self.next_period()
        return total

    def download(self, bits):
        """(latency ms, transfer ms) of one request issued now."""
        latency = self.wait_latency()
        return latency, self.transfer(bits)

    def idle(self, ms):
        if ms <= 0:
            return
        while ms > self.time_to_next:
            ms -= self.time_to_next
            self.now_ms += self.time_to_next
            self.next_period()
        self.time_to_next -= ms
        self.now_ms += ms


class Ewma:
    """Exponentially weighted average of weighted samples, corrected for its start at zero."""

    def __init__(self, half_life):
        self.alpha = math.exp(math.log(0.5) / half_life)
        self.raw = 0.0
        self.total_weight = 0.0

    def add(self, value, weight):
        decay = self.alpha if weight == 1 else math.pow(self.alpha, weight)
        self.raw = value * (1 - decay) + decay * self.raw
        self.total_weight += weight

    def value(self):
        if self.total_weight <= 0:
            return None
        zero_factor = 1 - math.pow(self.alpha, self.total_weight)
        return self.raw / zero_factor if zero_factor > 0 else self.raw


class Estimator:
    """Throughput: the smaller of two EWMAs (half-lives 3 s and 8 s of transfer time) of bits / transfer time.
    Latency: the larger of two EWMAs (half-lives 3 and 8 requests) of the time to first byte."""

    MINIMUM_TRANSFER_S = 0.001

    def __init__(self):
        self.fast = Ewma(3.0)
        self.slow = Ewma(8.0)
        self.fast_latency = Ewma(3.0)
        self.slow_latency = Ewma(8.0)

    def record(self, size_bytes, duration_s, first_byte_s):
        transfer_s = max(duration_s - first_byte_s, self.MINIMUM_TRANSFER_S)
        bps = float(size_bytes) * 8 / transfer_s
        self.fast.add(bps, transfer_s)
        self.slow.add(bps, transfer_s)
        self.fast_latency.add(max(first_byte_s, 0.0), 1)
        self.slow_latency.add(max(first_byte_s, 0.0), 1)

    def throughput_bps(self):
        if self.fast.value() is None:
            return None
        return min(self.fast.value(), self.slow.value())

    def latency_s(self):
        if self.fast_latency.value() is None:
            return None
        return max(self.fast_latency.value(), self.slow_latency.value())


class Decision:
    """What a rule is told before a request."""

    def __init__(self, manifest, estimator, buffer_s, cap_s):
        self.rates = manifest.rates_bps
        self.segment_s = manifest.segment_ms / 1000
        self.estimator = estimator
        self.buffer_s = buffer_s
        self.cap_s = cap_s

    def highest_sustainable(self, bps):
        """The highest level whose segment downloads within one segment time (latency included) at `bps`."""
        latency = self.estimator.latency_s() or 0.0
        level = 0
        while level + 1 < len(self.rates) and latency + self.segment_s * self.rates[level + 1] / bps <= self.segment_s:
            level += 1
        return level


class ThroughputRule:
    """The highest level sustainable at 0.9 x the estimate; then, while a segment of the next level up could
    not download within a fraction of the buffer (0.9, shrinking by 0.9 a decision to 0.5), a lower one."""

    def __init__(self):
        self.safety = 0.9
        self.buffer_safety = 0.9

    def choose(self, d):
        estimate = d.estimator.throughput_bps()
        if estimate is None:
            return 0
        level = d.highest_sustainable(estimate * self.safety)
        latency = d.estimator.latency_s() or 0.0
        safe_bits = self.buffer_safety * (d.buffer_s - latency) * estimate
        self.buffer_safety = max(self.buffer_safety * 0.9, 0.5)
        for lower in range(0, level):
            if d.rates[lower + 1] * d.segment_s > safe_bits:
                return lower
        return level


class BolaRule:
    """BOLA basic: the level maximising (V (u_m + gp) - buffer) / rate_m with u_m = ln(rate_m / rate_0),
    gp = 5 and V = (cap - segment) / (u_top + gp). A step up goes at most one level above what the throughput
    estimate sustains (or holds the last level if that is already above)."""

    GAMMA_P = 5.0

    def __init__(self):
        self.last_level = 0

    def choose(self, d):
        base = d.rates[0]
        v = (d.cap_s - d.segment_s) / (math.log(d.rates[-1] / base) + self.GAMMA_P)
        level = 0
        best = -math.inf
        for m, rate in enumerate(d.rates):
            score = (v * (math.log(rate / base) + self.GAMMA_P) - d.buffer_s) / rate
            if score > best:
                best = score
                level = m
        estimate = d.estimator.throughput_bps()
        if level > self.last_level and estimate is not None:
            sustainable = d.highest_sustainable(estimate)
            if level <= sustainable:
                pass
            elif self.last_level > sustainable:
                level = self.last_level
            else:
                level = sustainable + 1
        self.last_level = level
        return level


RULES = {"throughput": ThroughputRule, "bola": BolaRule}


class Session:
    """One playback session, segment by segment, in milliseconds and bits."""

    def __init__(self, manifest, trace, rule_name, buffer_s, startup_s):
        self.manifest = manifest
        self.network = Network(trace)
        self.rule = RULES[rule_name]()
        self.estimator = Estimator()
        self.cap_ms = max(buffer_s * 1000, manifest.segment_ms)
        self.startup_ms = min(max((startup_s or 0) * 1000, manifest.segment_ms), self.cap_ms)
        self.buffer_ms = 0.0
        self.playing = False
        self.startup_at_ms = None
        self.rebuffer_ms = 0.0
        self.rebuffer_events = 0
        self.levels = []

    def play(self):
        for k in range(self.manifest.segment_count):
            self.fetch(k)
        if not self.playing:
            self.startup_at_ms = self.network.now_ms
        return self

    def fetch(self, k):
        segment_ms = self.manifest.segment_ms
        # The next request waits while the segment would not fit under the cap; the buffer plays meanwhile.
        if self.playing and self.buffer_ms + segment_ms - self.cap_ms > 0:
            wait = self.buffer_ms + segment_ms - self.cap_ms
            self.buffer_ms -= wait
            self.network.idle(wait)
        decision = Decision(self.manifest, self.estimator, self.buffer_ms / 1000, self.cap_ms / 1000)
        level = self.rule.choose(decision)
        latency_ms, transfer_ms = self.network.download(self.manifest.sizes_bits[k][level])
        download_ms = latency_ms + transfer_ms
        if self.playing:
            if download_ms > self.buffer_ms:
                self.rebuffer_ms += download_ms - self.buffer_ms
                self.rebuffer_events += 1
                self.buffer_ms = 0.0
            else:
                self.buffer_ms -= download_ms
        self.buffer_ms += segment_ms
        self.levels.append(level)
        if not self.playing and self.buffer_ms >= self.startup_ms:
            self.playing = True
            self.startup_at_ms = self.network.now_ms
        self.estimator.record(self.manifest.sizes_bytes[k][level], download_ms / 1000, latency_ms / 1000)

    def qoe_lin(self):
        """Σ bitrate_Mbps − 4.3 · rebuffer_s − Σ |Δ bitrate_Mbps| over the played segments."""
        kbps = self.manifest.bitrates_kbps
        utility = 0.0
        change = 0.0
        for i, level in enumerate(self.levels):
            utility += kbps[level]
            if i > 0 and level != self.levels[i - 1]:
                change += abs(kbps[level] - kbps[self.levels[i - 1]])
        return utility / 1000 - REBUFFER_PENALTY * (self.rebuffer_ms / 1000) - change / 1000


def main(argv):
    if len(argv) < 3 or argv[2] not in ("--check", "--bench"):
        sys.stderr.write("usage: reference_simulator.py INPUT.json (--check | --bench SECONDS)\n")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        job = json.load(f)
    manifest = Manifest(job["manifest"])
    traces = [Trace(t) for t in job["traces"]]
    rule = job["rule"]
    if rule not in RULES:
        sys.stderr.write("rule %r is not implemented here (only %s)\n" % (rule, ", ".join(sorted(RULES))))
        return 2
    buffer_s = float(job.get("buffer_s", 60))
    startup_s = job.get("startup_s")

    def run(trace):
        return Session(manifest, trace, rule, buffer_s, startup_s).play()

    if argv[2] == "--check":
        for trace in traces:
            s = run(trace)
            print(json.dumps({
                "trace": trace.name, "levels": s.levels, "qoe_lin": s.qoe_lin(),
                "rebuffer_s": s.rebuffer_ms / 1000, "rebuffer_events": s.rebuffer_events,
                "startup_s": s.startup_at_ms / 1000}))
        return 0

    seconds = float(argv[3])
    sessions = 0
    checksum = 0.0
    start = time.process_time()
    while True:
        checksum += run(traces[sessions % len(traces)]).qoe_lin()
        sessions += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    print(json.dumps({"rule": rule, "sessions": sessions, "cpu_s": elapsed,
                      "sessions_per_s": sessions / elapsed, "checksum": checksum}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
