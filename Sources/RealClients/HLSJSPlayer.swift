import Foundation

/// hls.js 1.6 in headless Chromium (tests and benchmarks only): `make deps` puts the ES module that the pinned
/// gradio wheel carries at `.build/test-assets/hls.mjs`; it is loaded into the page from a Blob URL.
///
/// The wheel's module exports `isSupported` (`n`) and a helper (`t`) that returns a player instance; the player
/// class is that instance's constructor, so the harness makes its own instance with its own settings.
public enum HLSJSPlayer {
    public static let modulePath = SharedData.packageRoot.appendingPathComponent(".build/test-assets/hls.mjs")

    /// Why hls.js cannot run here (nil when the module and the browser are there).
    public static var unavailableReason: String? {
        if let reason = HeadlessChromium.unavailableReason { return reason }
        guard FileManager.default.fileExists(atPath: modulePath.path) else {
            return "hls.js is not at \(modulePath.path) (make deps fetches it)"
        }
        return nil
    }

    /// What one playback did.
    public struct Report: Decodable, Sendable {
        public var error: String?
        /// Seconds between the wall clock and the program date time of the frame playing, sampled every 250 ms
        /// once playback started.
        public var latencies: [Double]
        /// hls.js's own `latency` (live edge − position), sampled alike.
        public var playerLatencies: [Double]
        public var stalls: Int
        public var stallSeconds: Double
        /// Playlist requests carrying `_HLS_msn` (blocking reloads), and their time to answer in seconds.
        public var blockingRequests: Int
        public var blockingHoldSeconds: [Double]
        public var partsLoaded: Int
        public var fragmentsLoaded: Int
        /// Levels switched to, in order.
        public var levelsSwitched: [Int]
        /// Media time when the run ended, and when the switch was asked for.
        public var endTime: Double
        public var switchTime: Double?
        public var levelCount: Int
        /// What the player was doing at each stall, one line each: when, where, how much was buffered, the
        /// level, the latency it aimed at, and the last media it had loaded.
        public var stallDetails: [String]
        /// The player's last events (playlist, fragment, part and key requests, buffered media, errors fatal or
        /// not), the last 12 of each stream (main, audio, subtitle, other) in that order: what a failure message
        /// shows of what the player was waiting for.
        public var recentEvents: [String]
        /// Times a stream (main, audio) started loading a key and then neither requested, received nor buffered
        /// media for 3 s or more (until it moved again, or to the end of the run), or asked for a part of one
        /// segment while loading the key of another and never loaded that part (for 3 s or more), one line each:
        /// the shapes of hls.js 1.6.x's stalls in encrypted LL-HLS (video-dev/hls.js#7871, #7975; fixed in later
        /// 1.6 releases by #7976). A key or part the server never answered would look the same: `httpErrors` tells.
        public var parkedAfterKeyLoad: [String]
        /// Requests the server answered with an error status (playlists, media, keys), one line each.
        public var httpErrors: [String]
        /// Distinct key URIs hls.js loaded.
        public var keysLoaded: Int
        /// How playback began, one line each, in seconds after `loadSource`: the multivariant and first media
        /// playlists (with the live edge and the latency hls.js aims at), the first media requested and buffered,
        /// and the first frame playing (its position, hls.js's latency and the wall-clock latency then).
        public var startup: [String]
        /// Every fragment (or part) loaded, in order of arrival.
        public var fragments: [Fragment]
        /// Seconds from `loadSource` to the first `playing` event (nil: it never played).
        public var playingAt: Double?
        /// Each stall: when it began and how long it lasted (to the end of the run when it never ended), seconds
        /// from `loadSource`.
        public var stallIntervals: [[Double]]
        /// The levels' bitrates (bit/s), by hls.js's level index.
        public var levelBitrates: [Double]
        /// True when the video reached its end (a VOD stream played through).
        public var ended: Bool
    }

    /// One loaded fragment or part: its stream, level and media sequence number, the request's start, first
    /// byte and end (seconds from `loadSource`, hls.js's own load stats) and its bytes.
    public struct Fragment: Decodable, Sendable {
        public var type: String
        public var level: Int
        public var sn: Int
        public var part: Int?
        public var start: Double
        public var firstByte: Double
        public var end: Double
        public var bytes: Int
        /// The fragment's media start, seconds.
        public var mediaStart: Double
        /// It was appended to the media buffer (FRAG_BUFFERED) — what plays, where a segment was loaded twice.
        public var buffered: Bool
    }

    static let harness = #"""
        const [source, url, seconds, lowLatency, switchAt, catchUp] = arguments;
        const done = arguments[arguments.length - 1];
        (async () => {
          const module = await import(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
          if (!module.n()) return done({error: "hls.js is not supported in this browser"});
          const probe = module.t(document.createElement("video"), "data:,");
          const Hls = probe.constructor; probe.destroy();
          const video = document.createElement("video");
          video.muted = true; video.autoplay = true; video.playsInline = true;
          document.body.appendChild(video);
          const report = {latencies: [], playerLatencies: [], stalls: 0, stallSeconds: 0, blockingRequests: 0,
            blockingHoldSeconds: [], partsLoaded: 0, fragmentsLoaded: 0, levelsSwitched: [], endTime: 0,
            switchTime: null, levelCount: 0, error: null, stallDetails: [], recentEvents: [], parkedAfterKeyLoad: [],
            httpErrors: [], keysLoaded: 0, startup: [], fragments: [], playingAt: null, stallIntervals: [],
            levelBitrates: [], ended: false};
          const keyURIs = new Set(), lastFragEvent = {}, keyLoading = {};
          const t0 = performance.now();
          const now = () => ((performance.now() - t0) / 1000).toFixed(2);
          let lastLoaded = "nothing";
          const recent = {main: [], audio: [], subtitle: [], other: []};
          const note = (text, type) => {
            const list = recent[type] || recent.other;
            list.push(`${now()} s: ${type || "other"}: ${text}`);
            if (list.length > 12) list.shift();
            report.recentEvents = [].concat(recent.main, recent.audio, recent.subtitle, recent.other);
          };
          const sinceStart = (at) => Number(((at - t0) / 1000).toFixed(3));
          const fragName = (f, part) => `${f.type} level ${f.level} sn ${f.sn}` + (part ? ` part ${part.index}` : "");
          const hls = new Hls(Object.assign({lowLatencyMode: lowLatency, liveDurationInfinity: true},
            lowLatency && catchUp ? {maxLiveSyncPlaybackRate: 1.5} : {}));
          const firstTimes = new Set();
          const first = (what, text) => {
            if (firstTimes.has(what)) return;
            firstTimes.add(what);
            report.startup.push(`${now()} s: ${text}`);
          };
          hls.on(Hls.Events.MANIFEST_PARSED, () => first("manifest", "multivariant playlist parsed"));
          hls.on(Hls.Events.LEVEL_LOADED, (_, data) => {
            const d = data.details, stats = data.stats;
            const took = stats && stats.loading ? ` (request took ${((stats.loading.end - stats.loading.start) / 1000).toFixed(2)} s)` : "";
            first("level", `level ${data.level} loaded${took}: media sequence ${d.startSN}–${d.endSN}, ` +
              `${d.partList ? d.partList.length : 0} parts of the last segment, edge ${d.edge.toFixed(2)} s, ` +
              `part hold back ${d.partHoldBack}, hold back ${d.holdBack}, target latency ${Number(hls.targetLatency).toFixed(2)} s`);
          });
          // The main stream's requests and appends until it plays.
          hls.on(Hls.Events.FRAG_LOADING, (_, data) => { if (data.frag.type === "main" && !playing) report.startup.push(
            `${now()} s: requested ${fragName(data.frag, data.part)} (${(data.part || data.frag).start.toFixed(2)}–${(data.part || data.frag).end.toFixed(2)} s${data.part ? (data.part.independent ? ", independent" : "") : ""})`); });
          hls.on(Hls.Events.FRAG_BUFFERED, (_, data) => { if (data.frag.type === "main" && !playing) report.startup.push(
            `${now()} s: buffered ${fragName(data.frag, data.part)}`); });
          // Media activity of a stream; a key load followed by 3 s or more without any is a parked stream.
          const fragActivity = (type) => {
            const at = performance.now(), key = keyLoading[type];
            if (key && key.at >= (lastFragEvent[type] || 0) && at - key.at >= 3000)
              report.parkedAfterKeyLoad.push(`${type} quiet ${((at - key.at) / 1000).toFixed(1)} s after loading the key of sn ${key.sn} at ${((key.at - t0) / 1000).toFixed(2)} s`);
            lastFragEvent[type] = at;
          };
          // hls.js 1.6 (video-dev/hls.js#7975) can arm a key load for one segment and, in the same call, ask for a
          // part of the next one instead; the key's answer then no longer matches and that part is never loaded.
          const swappedRequest = {};
          const noteUnloadedSwap = (type, at) => {
            const r = swappedRequest[type];
            if (r && at - r.at >= 3000)
              report.parkedAfterKeyLoad.push(`${type} never loaded sn ${r.sn} part ${r.part}, asked for at ${((r.at - t0) / 1000).toFixed(2)} s ` +
                `with the key of sn ${r.keySn} loading (${((at - r.at) / 1000).toFixed(1)} s before it asked for anything else)`);
            delete swappedRequest[type];
          };
          hls.on(Hls.Events.FRAG_LOADED, (_, data) => {
            if (data.part) report.partsLoaded++; else report.fragmentsLoaded++;
            const f = data.frag;
            const stats = (data.part || f).stats;
            if (stats && stats.loading && typeof f.sn === "number")
              report.fragments.push({type: f.type, level: f.level, sn: f.sn, part: data.part ? data.part.index : null,
                start: sinceStart(stats.loading.start), firstByte: sinceStart(stats.loading.first),
                end: sinceStart(stats.loading.end), bytes: stats.total || stats.loaded || 0,
                mediaStart: (data.part || f).start, buffered: false});
            lastLoaded = `${fragName(f, data.part)} at ${now()} s`;
            if (swappedRequest[f.type] && swappedRequest[f.type].sn === f.sn) delete swappedRequest[f.type];
            fragActivity(f.type);
          });
          hls.on(Hls.Events.FRAG_LOADING, (_, data) => {
            const type = data.frag.type, key = keyLoading[type], at = performance.now();
            noteUnloadedSwap(type, at);
            if (data.part && key && key.sn !== data.frag.sn && at - key.at < 50)
              swappedRequest[type] = {keySn: key.sn, sn: data.frag.sn, part: data.part.index, at};
            fragActivity(type);
            note(`loading ${fragName(data.frag, data.part)}`, type);
          });
          hls.on(Hls.Events.FRAG_BUFFERED, (_, data) => {
            const partIndex = data.part ? data.part.index : null;
            for (let i = report.fragments.length - 1; i >= 0; i--) {
              const r = report.fragments[i];
              if (r.type === data.frag.type && r.sn === data.frag.sn && r.level === data.frag.level && r.part === partIndex) {
                r.buffered = true;
                break;
              }
            }
            fragActivity(data.frag.type);
            note(`buffered ${fragName(data.frag, data.part)}`, data.frag.type);
          });
          hls.on(Hls.Events.KEY_LOADING, (_, data) => {
            keyLoading[data.frag.type] = {at: performance.now(), sn: data.frag.sn};
            note(`loading key of sn ${data.frag.sn}`, data.frag.type);
          });
          hls.on(Hls.Events.KEY_LOADED, (_, data) => {
            const type = data.keyInfo && data.keyInfo.frag ? data.keyInfo.frag.type : "other";
            if (data.keyInfo && data.keyInfo.decryptdata) keyURIs.add(data.keyInfo.decryptdata.uri);
            note(`loaded key of sn ${data.frag.sn}`, type);
          });
          hls.on(Hls.Events.LEVEL_LOADING, (_, data) => note(`loading level ${data.level} ${data.deliveryDirectives ? "msn " + data.deliveryDirectives.msn + " part " + data.deliveryDirectives.part : ""}`, "main"));
          hls.on(Hls.Events.LEVEL_SWITCHING, (_, data) => note(`switching to level ${data.level}`, "main"));
          hls.on(Hls.Events.LEVEL_LOADED, (_, data) => {
            if (data.deliveryDirectives && data.deliveryDirectives.msn !== undefined && data.deliveryDirectives.msn !== null) {
              report.blockingRequests++;
              const stats = data.stats;
              if (stats && stats.loading) report.blockingHoldSeconds.push((stats.loading.first - stats.loading.start) / 1000);
            }
          });
          hls.on(Hls.Events.LEVEL_SWITCHED, (_, data) => report.levelsSwitched.push(data.level));
          hls.on(Hls.Events.MANIFEST_PARSED, (_, data) => {
            report.levelCount = data.levels.length;
            report.levelBitrates = data.levels.map(level => level.bitrate);
          });
          hls.on(Hls.Events.ERROR, (_, data) => {
            if (data.fatal) report.error = data.type + ": " + data.details;
            const status = data.response && data.response.code !== undefined ? ` (HTTP ${data.response.code})` : "";
            if (data.response && data.response.code >= 400)
              report.httpErrors.push(`${now()} s: ${data.details} (HTTP ${data.response.code})` + (data.frag ? ` on ${fragName(data.frag, data.part)}` : ""));
            note(`${data.fatal ? "fatal" : "non-fatal"} error ${data.details}${status}` + (data.frag ? ` on ${fragName(data.frag, data.part)}` : ""), data.frag ? data.frag.type : "other");
          });
          let playing = false, stalledSince = null;
          video.addEventListener("playing", () => {
            if (!playing) {
              report.playingAt = sinceStart(performance.now());
              const wall = hls.playingDate ? ((Date.now() - hls.playingDate.getTime()) / 1000).toFixed(2) + " s" : "unknown";
              first("playing", `playing from ${video.currentTime.toFixed(2)} s: hls.js latency ${Number(hls.latency).toFixed(2)} s ` +
                `(target ${Number(hls.targetLatency).toFixed(2)} s), wall-clock latency ${wall}, ` +
                `${(video.buffered.length ? video.buffered.end(video.buffered.length - 1) - video.currentTime : 0).toFixed(2)} s buffered ahead`);
            }
            playing = true;
            if (stalledSince !== null) {
              report.stallSeconds += (performance.now() - stalledSince) / 1000;
              report.stallIntervals.push([sinceStart(stalledSince), (performance.now() - stalledSince) / 1000]);
              stalledSince = null;
            }
          });
          video.addEventListener("waiting", () => {
            if (!playing || stalledSince !== null) return;
            report.stalls++; stalledSince = performance.now();
            const b = video.buffered; let ahead = 0;
            for (let i = 0; i < b.length; i++) if (b.start(i) <= video.currentTime + 0.05 && b.end(i) > video.currentTime) ahead = b.end(i) - video.currentTime;
            report.stallDetails.push(`at ${now()} s: media ${video.currentTime.toFixed(2)} s, ${ahead.toFixed(2)} s buffered ahead, ` +
              `level ${hls.currentLevel}, latency ${Number(hls.latency).toFixed(2)} s (target ${Number(hls.targetLatency).toFixed(2)} s), last loaded ${lastLoaded}`);
          });
          hls.loadSource(url);
          hls.attachMedia(video);
          const started = performance.now();
          const timer = setInterval(() => {
            const elapsed = (performance.now() - started) / 1000;
            if (playing && stalledSince === null && hls.playingDate) {
              report.latencies.push((Date.now() - hls.playingDate.getTime()) / 1000);
              if (Number.isFinite(hls.latency)) report.playerLatencies.push(hls.latency);
            }
            if (switchAt !== null && report.switchTime === null && elapsed >= switchAt && hls.levels.length > 1) {
              report.switchTime = video.currentTime;
              hls.currentLevel = hls.currentLevel === 0 ? hls.levels.length - 1 : 0;
            }
            if (elapsed >= seconds || report.error || video.ended) {
              clearInterval(timer);
              report.ended = video.ended;
              if (stalledSince !== null) {
                report.stallSeconds += (performance.now() - stalledSince) / 1000;
                report.stallIntervals.push([sinceStart(stalledSince), (performance.now() - stalledSince) / 1000]);
              }
              report.endTime = video.currentTime;
              report.keysLoaded = keyURIs.size;
              for (const t of ["main", "audio"]) { fragActivity(t); noteUnloadedSwap(t, performance.now()); }
              hls.destroy();
              done(report);
            }
          }, 250);
        })().catch(error => done({error: String(error), latencies: [], playerLatencies: [], stalls: 0, stallSeconds: 0,
          blockingRequests: 0, blockingHoldSeconds: [], partsLoaded: 0, fragmentsLoaded: 0, levelsSwitched: [],
          endTime: 0, switchTime: null, levelCount: 0, stallDetails: [], recentEvents: [], parkedAfterKeyLoad: [], httpErrors: [],
          keysLoaded: 0, startup: [], fragments: [], playingAt: null, stallIntervals: [], levelBitrates: [], ended: false}));
        """#

    /// Plays `url` for `seconds` in `browser` (which must have a page from an origin that may fetch `url` open)
    /// and reports. `switchAt`: seconds after the start at which to ask for another quality. `catchUp`: for
    /// low latency, `maxLiveSyncPlaybackRate: 1.5` as docs/LIVE.md tells users to set (false: hls.js's default of
    /// 1, a stock player). `module`: another ES module in place of hls.js (the harness's own tests give it a
    /// scripted stand-in).
    public static func play(
        _ url: String, in browser: HeadlessChromium, seconds: Double, lowLatency: Bool, switchAt: Double? = nil,
        catchUp: Bool = true, module: String? = nil
    ) async throws -> Report {
        let source = try module ?? String(contentsOf: modulePath, encoding: .utf8)
        try await browser.setScriptTimeout(seconds: seconds + 60)
        return try await browser.runAsync(
            harness, [source, url, seconds, lowLatency, switchAt.map { $0 as Any } ?? NSNull(), catchUp],
            as: Report.self)
    }
}
