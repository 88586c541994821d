/// What `RequestHandler` decides about a request before any slow work: the answer itself, or the one piece of
/// work that makes it (with everything decided so far captured), for a background worker to run once.
enum HandlerDecision: Sendable {
    case ready(HandlerAnswer)
    case slow(SlowAnswer)

    static func response(_ response: HTTPResponse) -> Self { .ready(.response(response)) }

    /// The same decision with `transform` applied to its answer (now, or when the slow work ends).
    func map(_ transform: @escaping @Sendable (HandlerAnswer) -> HandlerAnswer) -> Self {
        switch self {
        case .ready(let answer): .ready(transform(answer))
        case .slow(let slow): .slow(SlowAnswer { transform(slow.make()) })
        }
    }
}

/// An answer that may take milliseconds to make: a large playlist to parse, rewrite for a token, compress or
/// derive a delta from, or the catalogue to read.
struct SlowAnswer: Sendable {
    private let work: @Sendable () -> HandlerAnswer

    init(_ work: @escaping @Sendable () -> HandlerAnswer) { self.work = work }

    /// Does the work (on a background worker).
    func make() -> HandlerAnswer { work() }
}

/// A step of an answer that answered the request itself (a refusal, a missing file, a hold): the steps after it
/// do not run.
struct EarlyAnswer: Error {
    var answer: HandlerAnswer

    init(_ answer: HandlerAnswer) { self.answer = answer }
    init(_ response: HTTPResponse) { answer = .response(response) }
}
