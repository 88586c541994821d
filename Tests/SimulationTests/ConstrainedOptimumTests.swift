import FilterzTestSupport
import Foundation
import JSON
import Testing

@testable import Playback
@testable import Simulation

/// The offline optimum under a session's viewer actions (``ViewerConstraints``): a session with a manual pick is
/// compared with the best that was possible under that pick, not with an optimum that ignored it.
@Suite struct ConstrainedOptimumTests {
    static let manifest = PlaybackRunnerTests.manifest

    static func pick(_ level: Int, at seconds: Double) -> ViewerAction {
        ViewerAction(timeSeconds: seconds, kind: .select(.fixed(variantIndex: level), name: "level \(level)"))
    }

    static func auto(at seconds: Double) -> ViewerAction {
        ViewerAction(timeSeconds: seconds, kind: .select(.auto, name: "auto"))
    }

    /// The demo's case: a pick far above a slow link forces stalls the viewer asked for. The optimum that honours
    /// the pick is far below the one that ignores it, and the session is measured against the former.
    @Test func aManualPickOnASlowLinkIsMeasuredAgainstTheOptimumUnderThatPick() throws {
        let trace = try NetworkTrace(
            name: "slow",
            periods: [.init(durationMilliseconds: 10_000, bandwidthKilobitsPerSecond: 1_500, latencyMilliseconds: 80)])
        let actions = [Self.pick(3, at: 12), Self.auto(at: 30)]
        let session = PlaybackRunner.run(
            manifest: Self.manifest, trace: trace, configuration: SessionConfiguration(), schedule: actions)
        let free = try OfflineOptimum.compute(manifest: Self.manifest, trace: trace, bufferCapSeconds: 60)
        let constraints = try ViewerConstraints(actions: actions, manifest: Self.manifest, viewport: nil)
        let constrained = try OfflineOptimum.compute(
            manifest: Self.manifest, trace: trace, bufferCapSeconds: 60, constraints: constraints)
        #expect(session.summary.rebufferSeconds > 0)
        #expect(constrained.qoeLin < free.qoeLin, "\(constrained.qoeLin) vs \(free.qoeLin)")
        #expect(constrained.qoeLin >= session.summary.qoeLin - 1e-6)
        #expect(constrained.levels.filter { $0 == 3 }.count >= 4, "\(constrained.levels)")

        var result = session
        result.summary.offlineOptimalQoeLin = free.qoeLin
        result.summary.constrainedOptimalQoeLin = constrained.qoeLin
        let line = try #require(
            SessionReport.text(result, manifest: Self.manifest).split(separator: "\n").first { $0.hasPrefix("QoE_lin") }
        )
        let percent = try #require(result.summary.fractionOfConstrainedOptimum) * 100
        #expect(
            line.contains(
                "(optimum under the viewer's actions \(fixedNumber(constrained.qoeLin, digits: 2)), \(fixedNumber(percent, digits: 1))%; "
                    + "ignoring them \(fixedNumber(free.qoeLin, digits: 2)))"), "\(line)")
        let json = SessionReport.json(result, manifest: Self.manifest).rendered(indent: nil)
        #expect(json.contains("\"constrained_optimal_qoe_lin\":"), "\(json)")
        #expect(json.contains("\"percent_of_constrained_optimum\":"), "\(json)")
    }

    /// Picks fix the level until Auto; rotations move the Auto cap; a fixed pick is not capped; a seek is refused.
    @Test func constraintsFollowPicksAndRotations() throws {
        let screen = PlaybackRunnerTests.screen
        let constraints = try ViewerConstraints(
            actions: [
                ViewerAction(timeSeconds: 5, kind: .rotate(.landscape, viewport: screen.viewport(.landscape))),
                Self.pick(5, at: 10), Self.auto(at: 20),
                ViewerAction(timeSeconds: 30, kind: .rotate(.portrait, viewport: screen.viewport(.portrait))),
                Self.pick(9, at: 35),  // no such level: ignored, as the player ignores it
            ],
            manifest: Self.manifest, viewport: screen.viewport(.portrait))
        let portraitCap = QualitySelector.viewportCap(
            variants: Self.manifest.variants, viewport: screen.viewport(.portrait))
        #expect(portraitCap < 5)
        #expect(constraints.levels(atMilliseconds: 0) == 0...portraitCap)
        #expect(constraints.levels(atMilliseconds: 5_000) == 0...5)
        #expect(constraints.levels(atMilliseconds: 12_000) == 5...5)
        #expect(constraints.levels(atMilliseconds: 25_000) == 0...5)
        #expect(constraints.levels(atMilliseconds: 40_000) == 0...portraitCap)
        // Requested in Auto, played after the pick: the pick (the player flushes it otherwise).
        #expect(constraints.levels(requestedAt: 6_000, playingFrom: 11_000) == 5...5)
        // Requested during the pick, played after Auto: still the pick.
        #expect(constraints.levels(requestedAt: 15_000, playingFrom: 22_000) == 5...5)
        #expect(throws: SimulationError.self) {
            try ViewerConstraints(
                actions: [ViewerAction(timeSeconds: 3, kind: .seek(toSeconds: 40))], manifest: Self.manifest,
                viewport: nil)
        }
    }

    /// A pick in the middle of a segment flushes the buffer, and the segment playing then is loaded again at the
    /// picked level: it is counted once (the demo's 4G session counted it twice, beating its own optimum).
    @Test func aSegmentReloadedByAPickIsCountedOnce() throws {
        let trace = try NetworkTrace(
            name: "fast",
            periods: [.init(durationMilliseconds: 10_000, bandwidthKilobitsPerSecond: 20_000, latencyMilliseconds: 40)])
        let actions = [Self.pick(1, at: 14)]  // inside segment 3 (12–16 s)
        let session = PlaybackRunner.run(
            manifest: Self.manifest, trace: trace, configuration: SessionConfiguration(), schedule: actions)
        #expect(session.summary.playedSegments == Self.manifest.segmentCount, "\(session.playedLevels)")
        let constrained = try OfflineOptimum.compute(
            manifest: Self.manifest, trace: trace, bufferCapSeconds: 60,
            constraints: try ViewerConstraints(actions: actions, manifest: Self.manifest, viewport: nil))
        #expect(
            constrained.qoeLin >= session.summary.qoeLin - 1e-6, "\(constrained.qoeLin) vs \(session.summary.qoeLin)")
    }

    /// On seeded random traces with random manual picks: the session ≤ the optimum under its picks ≤ the optimum
    /// that ignores them.
    @Test func theConstrainedOptimumLiesBetweenTheSessionAndTheFreeOptimum() throws {
        var random = SeededGenerator(seed: 31)
        for case_ in 0..<12 {
            let periods = (0..<random.nextInt(in: 3...12)).map { _ in
                NetworkTrace.Period(
                    durationMilliseconds: Double(random.nextInt(in: 1_000...15_000)),
                    bandwidthKilobitsPerSecond: Double(random.nextInt(in: 200...6_000)),
                    latencyMilliseconds: Double(random.nextInt(in: 20...120)))
            }
            let trace = try NetworkTrace(name: "random \(case_)", periods: periods)
            var time = 0.0
            let actions = (0..<random.nextInt(in: 1...3)).map { _ -> ViewerAction in
                time += Double(random.nextInt(in: 5...40))
                let level = random.nextInt(in: -1...(Self.manifest.levelCount - 1))
                return level < 0 ? Self.auto(at: time) : Self.pick(level, at: time)
            }
            let session = PlaybackRunner.run(
                manifest: Self.manifest, trace: trace, configuration: SessionConfiguration(), schedule: actions)
            let free = try OfflineOptimum.compute(manifest: Self.manifest, trace: trace, bufferCapSeconds: 60)
            let constrained = try OfflineOptimum.compute(
                manifest: Self.manifest, trace: trace, bufferCapSeconds: 60,
                constraints: try ViewerConstraints(actions: actions, manifest: Self.manifest, viewport: nil))
            let label = "case \(case_): \(actions.map { "\($0.timeSeconds) \($0.kind)" })"
            #expect(constrained.qoeLin <= free.qoeLin + 1e-9, "\(label)")
            #expect(
                constrained.qoeLin >= session.summary.qoeLin - 1e-6,
                "\(label): session \(session.summary.qoeLin), constrained \(constrained.qoeLin)")
        }
    }
}
