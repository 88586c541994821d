import FilterzTestSupport
import RealClients

#if canImport(Glibc)
    import Glibc
#endif

extension RawConnection {
    /// True when nothing has arrived within `milliseconds`: a held request still held.
    func staysSilent(milliseconds: Int32 = 300) -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, milliseconds) == 0
    }
}
