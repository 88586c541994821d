/// Adds `token=` to every URI inside a playlist.
enum TokenRewriter {
    static func appendingToken(_ token: String, to bytes: [UInt8]) -> [UInt8] {
        bytes  // TODO: HLS parser (hls-core)
    }
}
