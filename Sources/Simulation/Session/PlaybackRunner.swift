import Playback

/// Runs a session with viewer actions. (Interim: no actions applied yet.)
public enum PlaybackRunner {
    public static func run(
        manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration, schedule: [ViewerAction]
    ) -> SessionResult {
        SessionSimulator.run(manifest: manifest, trace: trace, configuration: configuration)
    }
}
