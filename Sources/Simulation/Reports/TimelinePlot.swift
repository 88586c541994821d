/// An SVG timeline of a session (placeholder).
public enum TimelinePlot {
    public static func svg(_ result: SessionResult, manifest: StreamManifest, trace: NetworkTrace) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"
    }
}
