/// One session, through the runner it needs: the fast segment loop (`SessionSimulator`) when it can, the
/// effect runner over the `PlaybackMachine` (`PlaybackRunner`) when the viewer acts or the rule watches loads
/// in progress (`hlsjs`, which may abandon one and buffers as hls.js does).
public enum SimulatedSession {
    public static func run(
        manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration,
        schedule: [ViewerAction] = [], keepLog: Bool = true
    ) -> SessionResult {
        if schedule.isEmpty && configuration.rule != .hlsjs {
            return SessionSimulator.run(
                manifest: manifest, trace: trace, configuration: configuration, keepLog: keepLog)
        }
        return PlaybackRunner.run(manifest: manifest, trace: trace, configuration: configuration, schedule: schedule)
    }
}
