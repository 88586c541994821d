import Foundation  // ProcessInfo
import Synchronization

/// Keeps the fast path's frame-sized work buffers between frames, so a video does not allocate (and
/// page-fault in) tens of megabytes per frame. Thread-safe; buffers are matched by byte size; at most
/// `limit` idle buffers are kept: six per core of the machine. That is a memory cap, not a thread count: callers
/// such as `filterz record` run one single-threaded render per core side by side on copies of one renderer (a
/// render holds the blurred image and the vignette's column terms, and each thread running the blur's vertical
/// passes a strip of rows and its rings: four on one thread).
final class ScratchPool: Sendable {
    private struct Idle: @unchecked Sendable {  // raw memory owned by the pool while idle
        var buffers: [Int: [UnsafeMutableRawPointer]] = [:]
        var count = 0
    }
    private let idle = Mutex(Idle())
    private let limit = max(12, 6 * ProcessInfo.processInfo.activeProcessorCount)

    /// An uninitialised buffer of `count` elements (reused when one of the same size is idle).
    func take<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = count * MemoryLayout<T>.stride
        let reused = idle.withLock { idle -> UnsafeMutableRawPointer? in
            guard let pointer = idle.buffers[bytes]?.popLast() else { return nil }
            idle.count -= 1
            return pointer
        }
        let raw = reused ?? UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        return raw.bindMemory(to: T.self, capacity: count)
    }

    /// Returns a buffer from `take` (its elements must be trivial: they are not deinitialised).
    func give<T>(_ pointer: UnsafeMutablePointer<T>, count: Int) {
        let bytes = count * MemoryLayout<T>.stride
        let raw = UnsafeMutableRawPointer(pointer)
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < limit else { return false }
            idle.buffers[bytes, default: []].append(raw)
            idle.count += 1
            return true
        }
        if !kept { raw.deallocate() }
    }

    deinit {
        idle.withLock { idle in
            for pointer in idle.buffers.values.joined() { pointer.deallocate() }
            idle.buffers = [:]
        }
    }
}
