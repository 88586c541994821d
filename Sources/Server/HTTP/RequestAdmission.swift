/// The checks on a complete request head that decide whether it may reach the handler at all: its message
/// framing, its host, and its method's need for a body. This server takes no request body, so any sign of one
/// ends the connection after the answer; an ambiguous framing is exactly what lets a proxy in front and this
/// origin disagree about where the next request starts (request smuggling).
///
/// Refused with 400 (RFC 9112 §6.1, §6.3, RFC 9110 §7.2):
/// - `Transfer-Encoding` together with `Content-Length`, `Transfer-Encoding` in an HTTP/1.0 request, or any
///   `Transfer-Encoding` at all on GET, HEAD and OPTIONS (they have no body here);
/// - more than one `Content-Length` (even equal ones), or one that is not all digits;
/// - a body (`Content-Length` above 0) on GET, HEAD or OPTIONS;
/// - an HTTP/1.1 request without `Host`, with more than one, or with a malformed one;
/// - the asterisk form (`*`) with any method but OPTIONS.
///
/// Other methods are 405; with a body they are refused here, so that the connection is closed rather than the
/// body read as a request.
public enum RequestAdmission {
    public static let methodsServed: Set<String> = ["GET", "HEAD", "OPTIONS"]

    public static func refusal(for head: RequestHead) -> RequestRefusal? {
        let lengths = head.values("content-length")
        let codings = head.values("transfer-encoding")
        if !codings.isEmpty {
            if !lengths.isEmpty { return .badRequest("both Transfer-Encoding and Content-Length") }
            if head.version == .http10 { return .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
        }
        if lengths.count > 1 { return .badRequest("more than one Content-Length") }
        var bodyLength: UInt64 = 0
        if let length = lengths.first {
            guard !length.isEmpty, length.utf8.count <= 19, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = UInt64(length)
            else { return .badRequest("malformed Content-Length") }
            bodyLength = value
        }
        let hasBody = !codings.isEmpty || bodyLength > 0
        if hasBody {
            guard methodsServed.contains(head.method) else {
                return RequestRefusal(405, "method not allowed (and request bodies are not accepted)")
            }
            return .badRequest("a \(head.method) request carries no body here")
        }
        let hosts = head.values("host")
        if hosts.count > 1 { return .badRequest("more than one Host") }
        if head.version == .http11 && hosts.isEmpty { return .badRequest("HTTP/1.1 request without Host") }
        if let host = hosts.first, !host.isEmpty, !HostSyntax.isValidAuthority(Substring(host)) {
            return .badRequest("malformed Host")
        }
        if head.target.rawPath == "*" && head.method != "OPTIONS" {
            return .badRequest("the asterisk target is for OPTIONS only")
        }
        return nil
    }
}
