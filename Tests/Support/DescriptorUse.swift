import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many descriptors this test process holds against its limit: the context a test prints when a socket
/// fails in a way that running out of them would explain.
public struct DescriptorUse: CustomStringConvertible, Sendable {
    public var open: Int
    public var limit: Int

    public static var now: DescriptorUse {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        return DescriptorUse(open: open, limit: Int(clamping: limit.rlim_cur))
    }

    public var description: String { "this process held \(open) of \(limit) descriptors" }
}
