/// Reads one request head (request line, header fields, blank line) from the bytes a connection has received,
/// strictly enough that no two readers could see different requests in the same bytes (RFC 9112 §2–§5):
///
/// - lines end with CRLF or a bare LF; a CR anywhere else is refused;
/// - the request line is `method SP target SP HTTP/1.x`, single spaces, the method a token, the target visible
///   ASCII only (a NUL, any control byte, space or byte above 0x7e in it is 400: such a byte would cut or hide
///   part of the path for one reader and not for another); another `HTTP/d.d` is 505;
/// - a field is `name ":" OWS value OWS` with a token name and no space before the colon; a field line starting
///   with whitespace (obsolete folding), and control bytes other than tab in a value, are 400;
/// - up to four empty lines before the request line are skipped (§2.2);
/// - what cannot become a head is refused without waiting for a line end: a method part with a byte that is not a
///   token character (a TLS handshake sent to the plain port), a control byte anywhere;
/// - sizes are bounded by `RequestLimits` (414 for the request line, 431 for the head and the field count).
///
/// Pure: the same bytes always give the same answer, and no input traps.
public struct RequestHeadParser: Sendable {
    public enum Outcome: Sendable, Hashable {
        /// More bytes are needed (the limits are not yet reached).
        case incomplete
        /// A whole head: `length` bytes of the input, blank line included.
        case complete(RequestHead, length: Int)
        /// The bytes cannot be a request this server accepts.
        case refused(RequestRefusal)
    }

    public var limits: RequestLimits

    public init(limits: RequestLimits = RequestLimits()) { self.limits = limits }

    public func parse(_ bytes: [UInt8]) -> Outcome {
        bytes.withUnsafeBytes { parse($0) }
    }

    public func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        var start = 0
        var skipped = 0
        // Empty lines a client may send before a request (§2.2).
        while skipped < 4, start < bytes.count {
            if bytes[start] == lf {
                start += 1
            } else if bytes[start] == cr, start + 1 < bytes.count, bytes[start + 1] == lf {
                start += 2
            } else {
                break
            }
            skipped += 1
        }
        guard let lineEnd = findLineEnd(bytes, from: start, limit: start + limits.requestLineBytes + 2) else {
            if bytes.count - start > limits.requestLineBytes + 1 {
                return .refused(RequestRefusal(414, "request line longer than \(limits.requestLineBytes) bytes"))
            }
            return unfinishedRequestLineRefusal(bytes, from: start).map { .refused($0) } ?? .incomplete
        }
        let requestLine: (method: String, target: RequestTarget, rawTarget: String, version: HTTPVersion)
        switch parseRequestLine(bytes, start..<lineEnd.contentEnd) {
        case .success(let parsed): requestLine = parsed
        case .failure(let refusal): return .refused(refusal)
        }
        var fields: [RequestHead.Field] = []
        var position = lineEnd.next
        let headLimit = start + limits.headBytes
        while true {
            guard let end = findLineEnd(bytes, from: position, limit: headLimit) else {
                if bytes.count >= headLimit {
                    return .refused(RequestRefusal(431, "request head larger than \(limits.headBytes) bytes"))
                }
                return containsControlByte(bytes, from: position)
                    ? .refused(.badRequest("control byte in a header field")) : .incomplete
            }
            if end.contentEnd == position {
                let head = RequestHead(
                    method: requestLine.method, target: requestLine.target, rawTarget: requestLine.rawTarget,
                    version: requestLine.version, fields: fields)
                return .complete(head, length: end.next)
            }
            guard fields.count < limits.fieldCount else {
                return .refused(RequestRefusal(431, "more than \(limits.fieldCount) header fields"))
            }
            switch parseField(bytes, position..<end.contentEnd) {
            case .success(let field): fields.append(field)
            case .failure(let refusal): return .refused(refusal)
            }
            position = end.next
        }
    }

    // MARK: - Lines

    private let cr = UInt8(ascii: "\r")
    private let lf = UInt8(ascii: "\n")

    /// Where the line starting at `from` ends: the index of its CR (or LF) and the index after its LF; nil when no
    /// LF comes before `limit` or the end of the input.
    private func findLineEnd(_ bytes: UnsafeRawBufferPointer, from: Int, limit: Int) -> (contentEnd: Int, next: Int)? {
        var index = from
        let end = min(bytes.count, limit)
        while index < end {
            if bytes[index] == lf {
                let contentEnd = index > from && bytes[index - 1] == cr ? index - 1 : index
                return (contentEnd, index + 1)
            }
            index += 1
        }
        return nil
    }

    /// What already rules out a request line whose end has not arrived, so that it is refused at once rather than
    /// at the head's deadline: a byte other than a token character where the method is (a TLS handshake's first
    /// byte, 0x16, is one), or a control byte, DEL or a byte above 0x7E anywhere in it (a CR may still be the
    /// start of its line end).
    private func unfinishedRequestLineRefusal(_ bytes: UnsafeRawBufferPointer, from start: Int) -> RequestRefusal? {
        var index = start
        while index < bytes.count, Self.isTokenByte(bytes[index]) { index += 1 }
        if index < bytes.count {
            let endsMethod = bytes[index] == UInt8(ascii: " ") && index > start
            let mayEndEmptyLine = bytes[index] == cr && index == start && index + 1 == bytes.count
            if !endsMethod && !mayEndEmptyLine {
                return .badRequest(
                    bytes[start] == Self.tlsHandshakeByte
                        ? "a TLS handshake on a plain HTTP port" : "not an HTTP request line")
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if (byte < 0x20 && byte != cr) || byte >= 0x7f { return .badRequest("control byte in the request line") }
            index += 1
        }
        return nil
    }

    /// A control byte other than tab and CR (a NUL, for one) from `from` on: it can never appear in a head.
    private func containsControlByte(_ bytes: UnsafeRawBufferPointer, from: Int) -> Bool {
        var index = from
        while index < bytes.count {
            if Self.isForbiddenControlByte(bytes[index]) { return true }
            index += 1
        }
        return false
    }

    private static func isForbiddenControlByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r")) || byte == 0x7f
    }

    /// The first byte of a TLS record carrying a handshake (a ClientHello sent to the plain HTTP port).
    private static let tlsHandshakeByte: UInt8 = 0x16

    /// How many of a head's first bytes are parsed as they arrive, line end or not (`mayDecideBeforeLineEnd`):
    /// enough to hold any method and the space after it.
    static let earlyBytes = 32

    /// Whether `chunk`, just received after `receivedBefore` bytes of input, can decide the outcome of a parse:
    /// a line feed, or another control byte but tab and CR (refused wherever it is), or any of the head's first
    /// `earlyBytes` (where the method is, so that what cannot be HTTP is refused at once). Parsing only then
    /// keeps a head that trickles in a byte at a time from costing a parse per byte.
    static func mayDecideBeforeLineEnd(_ chunk: UnsafeRawBufferPointer, receivedBefore: Int) -> Bool {
        receivedBefore < earlyBytes || chunk.contains { $0 == 0x0a || isForbiddenControlByte($0) }
    }

    // MARK: - Request line

    private func parseRequestLine(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>
    ) -> Result<(method: String, target: RequestTarget, rawTarget: String, version: HTTPVersion), RequestRefusal> {
        let space = UInt8(ascii: " ")
        var index = range.lowerBound
        while index < range.upperBound, Self.isTokenByte(bytes[index]) { index += 1 }
        let methodEnd = index
        guard methodEnd > range.lowerBound, methodEnd < range.upperBound, bytes[methodEnd] == space else {
            return .failure(.badRequest("malformed request line"))
        }
        index += 1
        let targetStart = index
        while index < range.upperBound, bytes[index] != space {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7f else {
                return .failure(
                    .badRequest(
                        byte >= 0x80 ? "non-ASCII byte in the request target" : "control byte in the request target"))
            }
            index += 1
        }
        let targetEnd = index
        guard targetEnd > targetStart, targetEnd < range.upperBound else {
            return .failure(.badRequest("malformed request line"))
        }
        let versionBytes = UnsafeRawBufferPointer(rebasing: bytes[(targetEnd + 1)..<range.upperBound])
        let version: HTTPVersion
        switch Array(versionBytes) {
        case Array("HTTP/1.1".utf8): version = .http11
        case Array("HTTP/1.0".utf8): version = .http10
        case let other
        where other.count == 8 && other.starts(with: Array("HTTP/".utf8))
            && Self.isDigit(other[5]) && other[6] == UInt8(ascii: ".") && Self.isDigit(other[7]):
            return .failure(RequestRefusal(505, "HTTP version not supported"))
        default:
            return .failure(.badRequest("malformed request line"))
        }
        let method = String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<methodEnd]), as: UTF8.self)
        let rawTarget = String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<targetEnd]), as: UTF8.self)
        switch RequestTarget.parse(Substring(rawTarget)) {
        case .success(let target): return .success((method, target, rawTarget, version))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    // MARK: - Fields

    private func parseField(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Result<
        RequestHead.Field, RequestRefusal
    > {
        let first = bytes[range.lowerBound]
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            return .failure(.badRequest("obsolete line folding in the header fields"))
        }
        var index = range.lowerBound
        var name: [UInt8] = []
        while index < range.upperBound, Self.isTokenByte(bytes[index]) {
            let byte = bytes[index]
            name.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            index += 1
        }
        guard !name.isEmpty, index < range.upperBound, bytes[index] == UInt8(ascii: ":") else {
            return .failure(.badRequest("malformed header field"))
        }
        index += 1
        var valueStart = index
        var valueEnd = range.upperBound
        while valueStart < valueEnd, Self.isWhitespace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, Self.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        var scan = valueStart
        while scan < valueEnd {
            let byte = bytes[scan]
            if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7f {
                return .failure(.badRequest("control byte in a header field"))
            }
            scan += 1
        }
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
        return .success(RequestHead.Field(String(decoding: name, as: UTF8.self), value))
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `tchar` (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
