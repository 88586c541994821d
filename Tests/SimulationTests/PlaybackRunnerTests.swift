import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Playback
@testable import Simulation

/// The machine-driven run (one effect runner, `PlaybackMachine`) against the fast loop, and viewer actions.
@Suite struct PlaybackRunnerTests {
    static let manifest: StreamManifest = {
        // Pensieve-like ladder, 30 segments of 4 s with ±10 % sizes (deterministic).
        let bitrates: [Double] = [300, 750, 1200, 1850, 2850, 4300]
        let sizes = (0..<30).map { k in bitrates.map { $0 * 4000 * (1 + 0.1 * sin(Double(k * 7 + 3))) } }
        return try! StreamManifest(
            segmentDurationMilliseconds: 4000, bitratesKilobitsPerSecond: bitrates, segmentSizesBits: sizes,
            resolutions: [(320, 180), (640, 360), (768, 432), (1024, 576), (1280, 720), (1920, 1080)])
    }()

    /// A bumpy trace: 3 Mbps, a dip to 400 kbps, an outage, then 6 Mbps (looped), 80 ms latency.
    static let trace: NetworkTrace = try! NetworkTrace(
        name: "bumpy",
        periods: [(20_000.0, 3000.0), (15_000, 400), (3_000, 0), (25_000, 6000), (10_000, 1500)].map {
            .init(durationMilliseconds: $0.0, bandwidthKilobitsPerSecond: $0.1, latencyMilliseconds: 80)
        })

    static var sharedTraces: [NetworkTrace] {
        [
            "pensieve_norway/norway_bus_10.json", "pensieve_fcc/trace_10322_http---edition.cnn.com.json",
            "sabre_3g/report.2011-02-11_1618CET.json",
        ].compactMap { path in
            guard let url = SharedData.folder("traces/json")?.appendingPathComponent(path),
                let data = try? Data(contentsOf: url)
            else { return nil }
            return try? NetworkTrace(json: data, fallbackName: path)
        }
    }

    /// Every rule but `hlsjs`, which only the machine runs (it buffers as hls.js does and abandons loads).
    @Test(arguments: ABRRuleKind.allCases.filter { $0 != .hlsjs })
    func machineDrivenRunEqualsTheFastLoop(rule: ABRRuleKind) {
        // Without ../shared only the synthetic trace runs; with it, every shared trace named must be read.
        if SharedData.folder("traces/json") != nil {
            #expect(Self.sharedTraces.count == 3, "a shared trace is unreadable")
        }
        for trace in [Self.trace] + Self.sharedTraces {
            let configuration = SessionConfiguration(rule: rule)
            let fast = SessionSimulator.run(manifest: Self.manifest, trace: trace, configuration: configuration)
            let machine = PlaybackRunner.run(
                manifest: Self.manifest, trace: trace, configuration: configuration, schedule: [])
            #expect(machine.playedLevels == fast.playedLevels, "\(rule) on \(trace.name)")
            #expect(abs(machine.summary.qoeLin - fast.summary.qoeLin) < 1e-6, "\(rule) on \(trace.name)")
            #expect(abs(machine.summary.rebufferSeconds - fast.summary.rebufferSeconds) < 1e-6)
            #expect(machine.summary.rebufferEvents == fast.summary.rebufferEvents)
            #expect(abs(machine.summary.startupSeconds - fast.summary.startupSeconds) < 1e-9)
        }
    }

    static let screen = DeviceScreen(widthPoints: 390, heightPoints: 844, scale: 3)

    static func runWithActions(_ actions: [ViewerAction], rule: ABRRuleKind = .filterz) -> SessionResult {
        var configuration = SessionConfiguration(rule: rule)
        configuration.viewport = screen.viewport(.portrait)
        return PlaybackRunner.run(manifest: manifest, trace: trace, configuration: configuration, schedule: actions)
    }

    @Test func rotationsAndQualityPicksKeepPositionAndPlayState() {
        let result = Self.runWithActions([
            ViewerAction(timeSeconds: 12, kind: .rotate(.landscape, viewport: Self.screen.viewport(.landscape))),
            ViewerAction(timeSeconds: 30, kind: .select(.fixed(variantIndex: 3), name: "576p")),
            ViewerAction(timeSeconds: 50, kind: .select(.auto, name: "auto")),
            ViewerAction(timeSeconds: 70, kind: .rotate(.portrait, viewport: Self.screen.viewport(.portrait))),
        ])
        let actions = result.events.filter { $0.kind != .stall }
        #expect(actions.map(\.kind) == [.rotate, .select, .select, .rotate])
        for event in actions {
            #expect(abs(event.positionBeforeSeconds - event.positionAfterSeconds) < 1e-9, "\(event)")
            #expect(event.playingBefore == event.playingAfter)
            #expect(event.playingAfter)
        }
        // The manual pick is what gets loaded next, until auto.
        let picked = result.segments.filter { $0.requestTimeSeconds >= 30 && $0.requestTimeSeconds < 50 }
        #expect(!picked.isEmpty)
        #expect(picked.allSatisfy { $0.variant == 3 })
    }

    @Test func portraitCapsQualityAndLandscapeLiftsTheCap() {
        // 6 Mbps from 38 s on: in portrait (1170x658) at most 720p; full screen landscape allows 1080p.
        let portraitOnly = Self.runWithActions([])
        #expect(portraitOnly.segments.allSatisfy { $0.variant <= 4 })
        let rotated = Self.runWithActions([
            ViewerAction(timeSeconds: 1, kind: .rotate(.landscape, viewport: Self.screen.viewport(.landscape)))
        ])
        #expect(rotated.segments.contains { $0.variant == 5 })
    }

    @Test func aSeekMovesThePositionAndShowsInTheLogAndThePlot() {
        let result = Self.runWithActions([ViewerAction(timeSeconds: 40, kind: .seek(toSeconds: 10))])
        let seek = try! #require(result.events.first { $0.kind == .seek })
        #expect(abs(seek.positionAfterSeconds - 10) < 1e-9)
        #expect(seek.positionBeforeSeconds > 20)
        #expect(seek.playingAfter == seek.playingBefore)
        let svg = TimelinePlot.svg(result, manifest: Self.manifest, trace: Self.trace)
        #expect(svg.contains("seek to 10.00 s"))
    }

    @Test func actionsAndStallsAppearInThePlot() {
        let result = Self.runWithActions([
            ViewerAction(timeSeconds: 12, kind: .rotate(.landscape, viewport: Self.screen.viewport(.landscape))),
            ViewerAction(timeSeconds: 30, kind: .select(.fixed(variantIndex: 5), name: "1080p")),
        ])
        let svg = TimelinePlot.svg(result, manifest: Self.manifest, trace: Self.trace)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("⟳ landscape"))
        #expect(svg.contains("pick 1080p"))
        let stalls = result.events.filter { $0.kind == .stall }
        #expect(!stalls.isEmpty)  // 1080p over the 400 kbps dip cannot keep up
        #expect(svg.components(separatedBy: "<title>stall").count - 1 == stalls.count)
    }

    @Test func reportsAreDeterministic() {
        let first = Self.runWithActions([ViewerAction(timeSeconds: 20, kind: .seek(toSeconds: 5))])
        let second = Self.runWithActions([ViewerAction(timeSeconds: 20, kind: .seek(toSeconds: 5))])
        #expect(
            SessionReport.json(first, manifest: Self.manifest).rendered(indent: nil)
                == SessionReport.json(second, manifest: Self.manifest).rendered(indent: nil))
        #expect(
            TimelinePlot.svg(first, manifest: Self.manifest, trace: Self.trace)
                == TimelinePlot.svg(second, manifest: Self.manifest, trace: Self.trace))
    }

    @Test func jsonReportHasTheAgreedFields() {
        let result = Self.runWithActions([ViewerAction(timeSeconds: 20, kind: .rotate(.landscape, viewport: nil))])
        let text = SessionReport.json(result, manifest: Self.manifest).rendered(indent: nil)
        for key in [
            "\"summary\"", "\"qoe_lin\"", "\"offline_optimal_qoe_lin\"", "\"avg_bitrate_kbps\"", "\"rebuffer_s\"",
            "\"rebuffer_events\"", "\"switches\"", "\"startup_s\"", "\"segments\"", "\"events\"", "\"t\"",
            "\"kind\"", "\"position_before_s\"", "\"position_after_s\"", "\"playing_before\"", "\"playing_after\"",
        ] {
            #expect(text.contains(key), "\(key)")
        }
    }
}
