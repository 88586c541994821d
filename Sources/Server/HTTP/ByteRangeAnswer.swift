/// How to answer a `Range` request header for a file of a known size (RFC 9110 §14).
///
///     ByteRangeAnswer(rangeHeader: "bytes=0-99", size: 1000)   // .partial(0...99)
///     ByteRangeAnswer(rangeHeader: "bytes=-100", size: 1000)   // .partial(900...999)
///     ByteRangeAnswer(rangeHeader: "bytes=1000-", size: 1000)  // .unsatisfiable
///
/// Only single ranges are honoured; a list of ranges (`bytes=0-1,5-6`) and anything malformed is answered with
/// the whole file (a server may ignore `Range`). Sizes are in bytes. Positions of any length are read, those
/// past 2⁶³ − 1 as 2⁶³ − 1: a first position past the end is 416, a last position or suffix past it is clamped
/// to the file (RFC 9110 §14.1.2).
public enum ByteRangeAnswer: Sendable, Hashable {
    /// 200 with the whole file.
    case whole
    /// 206 with the inclusive byte range and `Content-Range: bytes first-last/size`.
    case partial(ClosedRange<Int64>)
    /// 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    public init(rangeHeader: String?, size: Int64) {
        guard let header = rangeHeader else {
            self = .whole
            return
        }
        var text = Substring(header).drop { $0 == " " }
        guard text.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        text = text.dropFirst(6)
        let spec = text.trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let firstText = spec[..<dash].trimmingSpaces()
        let lastText = spec[spec.index(after: dash)...].trimmingSpaces()
        if firstText.isEmpty {
            // Suffix range: the last n bytes.
            guard let suffix = Self.digits(lastText) else {
                self = .whole
                return
            }
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, size - suffix)...(size - 1))
            return
        }
        guard let first = Self.digits(firstText) else {
            self = .whole
            return
        }
        var last = size - 1
        if !lastText.isEmpty {
            guard let value = Self.digits(lastText), value >= first else {
                self = .whole
                return
            }
            last = min(value, size - 1)
        }
        guard first < size else {
            self = .unsatisfiable
            return
        }
        self = .partial(first...last)
    }

    /// The `Content-Range` header value for this answer, nil for `.whole`.
    public func contentRange(size: Int64) -> String? {
        switch self {
        case .whole: nil
        case .partial(let range): "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        case .unsatisfiable: "bytes */\(size)"
        }
    }

    /// Digits only (no sign, no spaces), any number of them; values past `Int64.max` saturate there.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - 0x30))
            value = overflowTimes || overflowSum ? Int64.max : sum
        }
        return value
    }
}
