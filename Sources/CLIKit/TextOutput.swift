#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes text: the process's stdout/stderr, or a buffer in tests.
public protocol TextOutput: AnyObject {
    func write(_ text: String)
    /// True when the output is an interactive terminal (progress lines are drawn only there).
    var isTerminal: Bool { get }
}

extension TextOutput {
    /// Writes `text` followed by a newline.
    public func line(_ text: String = "") { write(text + "\n") }
}

/// A file descriptor of the process (1 = stdout, 2 = stderr), written unbuffered.
public final class FileDescriptorOutput: TextOutput, @unchecked Sendable {
    private let descriptor: Int32
    public init(descriptor: Int32) { self.descriptor = descriptor }

    public static let standardOutput = FileDescriptorOutput(descriptor: 1)
    public static let standardError = FileDescriptorOutput(descriptor: 2)

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// Collects everything written, for tests of `CLI.run`.
public final class CapturedOutput: TextOutput, @unchecked Sendable {
    public private(set) var text = ""
    public let isTerminal: Bool
    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }
    public func write(_ text: String) { self.text += text }
}
