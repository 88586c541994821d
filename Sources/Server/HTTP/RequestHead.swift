/// A request line and its header fields as received, checked for syntax by `RequestHeadParser` (no body: this
/// server takes none).
public struct RequestHead: Sendable, Hashable {
    /// One header field: the name in lower case, the value without surrounding whitespace.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    public var target: RequestTarget
    /// The request target exactly as sent (for the access log).
    public var rawTarget: String
    public var version: HTTPVersion
    /// In the order received; repeated names are kept apart.
    public var fields: [Field]

    public init(method: String, target: RequestTarget, rawTarget: String, version: HTTPVersion, fields: [Field]) {
        self.method = method
        self.target = target
        self.rawTarget = rawTarget
        self.version = version
        self.fields = fields
    }

    /// Every value of the field `name` (lower case), in order.
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The last value of the field `name` (lower case).
    public func value(_ name: String) -> String? { fields.last { $0.name == name }?.value }

    /// True when the client lets the connection stay open after this request: HTTP/1.1 unless `Connection:
    /// close`, HTTP/1.0 only with `Connection: keep-alive` (RFC 9112 §9.3).
    public var keepsAlive: Bool {
        let options = values("connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }
        if options.contains("close") { return false }
        return version == .http11 || options.contains("keep-alive")
    }

    /// The request as the handler sees it: method, path and query as sent, and the last value of each field.
    public var request: HTTPRequest {
        var headers: [String: String] = [:]
        for field in fields { headers[field.name] = field.value }
        return HTTPRequest(method: method, rawPath: target.rawPath, rawQuery: target.rawQuery, headers: headers)
    }
}
