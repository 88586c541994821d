import HLS

extension PlaylistFacts {
    /// The facts of a playlist's bytes, read with the `HLS` parser; nil when they are not a playlist.
    public init?(parsing bytes: [UInt8]) {
        switch HLS.parse(bytes).playlist {
        case .multivariant: self = .multivariant
        case .media(let media):
            self = .media(
                ended: media.endList, targetDurationSeconds: media.targetDuration ?? media.minimumTargetDuration)
        case nil: return nil
        }
    }
}
