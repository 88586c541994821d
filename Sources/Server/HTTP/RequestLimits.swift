/// The sizes a request head may reach before it is refused (every refusal is one well-formed status and the
/// connection is closed after it).
///
/// | limit | default | answer beyond it |
/// |---|---|---|
/// | request line (method, target, version) | 8 KiB | 414 |
/// | whole head: request line, header fields, blank line | 16 KiB | 431 |
/// | header fields | 256 | 431 |
///
/// An 8 KiB cookie therefore fits, as long as the whole head stays within 16 KiB. The path itself has its own,
/// smaller limit (`PathGuard.defaultMaximumBytes`, 414).
public struct RequestLimits: Sendable, Hashable {
    public var requestLineBytes: Int = 8 * 1024
    public var headBytes: Int = 16 * 1024
    public var fieldCount: Int = 256

    public init() {}
}
