import Media

/// Why a segmenting job failed: a one-line reason naming what was at fault.
public enum SegmenterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libav call failed.
    case libav(FFmpegError)
    /// An output file could not be written.
    case output(String)
    /// A rendition's encoder or muxer failed (its message names the rendition).
    case rendition(String)
    /// The configuration cannot work (e.g. no renditions).
    case configuration(String)

    public var description: String {
        switch self {
        case .libav(let error): error.description
        case .output(let message), .rendition(let message), .configuration(let message): message
        }
    }
}
