/// A fixed-size buffer at a stable address, freed with its owner: the LUT's tables, read by raw pointer in the
/// inner loop. Written only while the owner is being built, read-only afterwards (hence safe to share).
final class PinnedBuffer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int, repeating value: Element) {
        self.count = count
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: value, count: count)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
