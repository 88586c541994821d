import RealClients

/// Python m3u8 6.0.0, an independent playlist parser the tests compare `inspect --json` and recorded ladders with.
public enum PythonM3U8 {
    public static let isInstalled: Bool = {
        guard ExternalTool.isInstalled("python3") else { return false }
        return (try? ExternalTool.run("python3", ["-c", "import m3u8"], timeoutSeconds: 20).exitCode) == 0
    }()
}
