/// Two pieces of work run at the same time: `run(first, second)` runs `second` on another thread while `first`
/// runs on the calling one, and returns when both have finished (running `second` after `first` on the
/// calling thread is a correct, slower implementation). The parser has no threads of its own; a program that
/// has them lends two through ``ParseOptions/parallel``.
public struct ParallelPair: Sendable {
    public let run: @Sendable (_ first: () -> Void, _ second: @escaping @Sendable () -> Void) -> Void

    public init(run: @escaping @Sendable (_ first: () -> Void, _ second: @escaping @Sendable () -> Void) -> Void) {
        self.run = run
    }

    /// Runs both on the calling thread, one after the other.
    public static let sequential = ParallelPair { first, second in
        first()
        second()
    }
}
