/// Why a request is answered with an error before it reaches the handler, and with which status. The connection
/// is always closed after a refusal: once the framing is in doubt, nothing after it can be trusted to be the
/// next request (RFC 9112 §6.3, §11.2).
public struct RequestRefusal: Error, Sendable, Hashable {
    public var status: Int
    /// A short phrase for the body and the access log, such as `control byte in the request target`.
    public var reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    static func badRequest(_ reason: String) -> Self { Self(400, reason) }
}
