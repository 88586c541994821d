import Synchronization

/// A fixed number of slots, each written once by a concurrent worker and read when all are done: results
/// land by index, so their order does not depend on scheduling.
///
///     let slots = ResultSlots<Int>(count: 3)
///     DispatchQueue.concurrentPerform(iterations: 3) { slots.set($0, $0 * $0) }
///     slots.values  // [0, 1, 4]
public final class ResultSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    public init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    public func set(_ index: Int, _ value: Value) { slots.withLock { $0[index] = value } }

    /// Every slot's value in index order; a slot never set is left out.
    public var values: [Value] { slots.withLock { $0.compactMap { $0 } } }
}
