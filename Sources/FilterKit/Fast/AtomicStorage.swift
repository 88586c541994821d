import Foundation  // madvise
import Synchronization

/// `count` atomic `UInt32`s at a stable address, freed with their owner.
///
/// Aligned to 2 MiB and marked for transparent huge pages (`madvise`, a hint the kernel may ignore): a frame's
/// lookups land all over the 64 MB table, and with 4 KiB pages nearly every one would also miss the TLB.
final class AtomicStorage: Sendable {
    nonisolated(unsafe) let pointer: UnsafeMutablePointer<Atomic<UInt32>>
    let count: Int
    static let hugePage = 2 << 20

    init(count: Int, repeating value: UInt32) {
        self.count = count
        let bytes = count * MemoryLayout<Atomic<UInt32>>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.hugePage)
        #if os(Linux)
            _ = madvise(raw, bytes, MADV_HUGEPAGE)
        #endif
        pointer = raw.bindMemory(to: Atomic<UInt32>.self, capacity: count)
        for i in 0..<count { (pointer + i).initialize(to: Atomic(value)) }
    }

    deinit {
        pointer.deinitialize(count: count)
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}
