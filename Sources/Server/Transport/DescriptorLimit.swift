#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open descriptors (RLIMIT_NOFILE), which bounds the connections a server can hold.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one (as far as any process may go without privileges) and returns the
    /// limit then in force.
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(sysconf(Int32(_SC_OPEN_MAX))) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
