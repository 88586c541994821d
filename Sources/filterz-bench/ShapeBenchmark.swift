import CLIKit
import FilterKit
import Foundation
import JSON
import RealClients
import Server
import Simulation

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz-bench shape`: how closely `serve --shape` follows its link over real sockets. Three measurements,
/// each against its anchor in the same run: a large file over a constant link (its time ÷ the link's time), a
/// download over a trace of 1 s periods (the bytes received in each second ÷ what the trace carried then, after
/// the first second), and the time to first byte with a 40 ms latency less the same without shaping.
enum ShapeBenchmark {
    static let mebibytesOption = Option.integer(
        "--mebibytes", placeholder: "N", default: 16, in: 1...1024, help: "Size of the file sent over the 4 Mb/s link.")
    static let secondsOption = Option.integer(
        "--trace-seconds", placeholder: "N", default: 20, in: 3...600, help: "Length of the 1 s-period trace played.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "shape",
                abstract: "serve --shape over real sockets: transfer time, bytes per second and latency vs the link.",
                options: [mebibytesOption.spec, secondsOption.spec]),
            action: { args, _ in
                do {
                    return try run(mebibytes: try args.get(mebibytesOption), traceSeconds: try args.get(secondsOption))
                } catch {
                    print("shape benchmark failed: \(error)")
                    return 1
                }
            })
    }

    static func run(mebibytes: Int, traceSeconds: Int) throws -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filterz-bench-shape-\(getpid())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("v"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = mebibytes << 20
        try Data(count: max(bytes, 16 << 20)).write(to: folder.appendingPathComponent("v/big.bin"))
        try Data("#EXTM3U\n".utf8).write(to: folder.appendingPathComponent("v/small.m3u8"))

        // 1. A constant 4 Mb/s link: the whole file's time against the link's.
        let constant = try NetworkTrace.constant(bitsPerSecond: 4_000_000, latencySeconds: 0)
        let transfer = try withServer(folder, shape: constant) { port in
            try TimedDownload(port: port, target: "/v/big.bin", headers: "Range: bytes=0-\(bytes - 1)\r\n")
        }
        let linkSeconds = Double(bytes) * 8 / 4_000_000
        let transferRatio = transfer.seconds / linkSeconds
        print(
            "\(mebibytes) MiB over 4 Mb/s: \(fixedNumber(transfer.seconds, digits: 2)) s, the link \(fixedNumber(linkSeconds, digits: 2)) s"
        )

        // 2. A trace of 1 s periods (seeded rates from 0.5 to 8 Mb/s, one outage): bytes per second.
        var generator = SplitMix64(seed: 0x5_4A9E)
        let rates = (0..<traceSeconds).map { second in
            second == traceSeconds / 2 ? 0 : Double(generator.next() % 7500 + 500)
        }
        let trace = try NetworkTrace(
            name: "steps",
            periods: rates.map {
                .init(durationMilliseconds: 1000, bandwidthKilobitsPerSecond: $0, latencyMilliseconds: 0)
            })
        let carried = rates.reduce(0, +) * 1000 / 8
        let stepped = try withServer(folder, shape: trace) { port in
            try TimedDownload(port: port, target: "/v/big.bin", headers: "Range: bytes=0-\(Int(carried) - 1)\r\n")
        }
        var errors: [Double] = []
        for second in 1..<(traceSeconds - 1) {
            let received = Double(stepped.bytes(between: Double(second), and: Double(second + 1))) * 8
            let expected = rates[second] * 1000
            errors.append(expected == 0 ? received / 1_000_000 : abs(received - expected) / expected)
        }
        let sortedErrors = errors.sorted()
        print(
            "bytes per second against the trace: median error \(fixedNumber(Measuring.median(errors) * 100, digits: 1)) %, largest \(fixedNumber(sortedErrors.last! * 100, digits: 1)) %"
        )

        // 3. Latency: time to first byte of a small playlist, 40 ms shaped against unshaped.
        func firstBytes(_ shape: NetworkTrace?) throws -> Double {
            try withServer(folder, shape: shape) { port in
                Measuring.median(
                    try (0..<21).map { _ in try TimedDownload(port: port, target: "/v/small.m3u8").firstByteSeconds })
            }
        }
        let plain = try firstBytes(nil)
        let shaped = try firstBytes(try .constant(bitsPerSecond: 100_000_000, latencySeconds: 0.04))
        let added = (shaped - plain) * 1000
        print(
            "first byte: \(fixedNumber(plain * 1000, digits: 2)) ms unshaped, \(fixedNumber(shaped * 1000, digits: 2)) ms with a 40 ms latency"
        )
        ResultLine.print(
            "shape",
            [
                ("transfer_s", ResultLine.number(transfer.seconds)), ("link_s", ResultLine.number(linkSeconds)),
                ("transfer_ratio", ResultLine.number(transferRatio, places: 4)),
                ("per_second_error_median", ResultLine.number(Measuring.median(errors), places: 4)),
                ("per_second_error_max", ResultLine.number(sortedErrors.last!, places: 4)),
                ("latency_added_ms", ResultLine.number(added)), ("latency_error_ms", ResultLine.number(added - 40)),
            ])
        return 0
    }

    static func withServer<T>(_ folder: URL, shape: NetworkTrace?, _ body: (UInt16) throws -> T) throws -> T {
        var configuration = ServerConfiguration(root: folder.path)
        configuration.port = 0
        configuration.shape = shape.map { LinkShape(trace: $0) }
        let server = try HTTPServer(configuration: configuration)
        defer { server.stop(graceSeconds: 1) }
        return try body(server.port)
    }
}

/// One GET over a `RawConnection`, reading to the end and noting when each chunk arrived (seconds from the
/// request).
struct TimedDownload {
    struct Failure: Error { var reason: String }

    private(set) var arrivals: [(seconds: Double, bytes: Int)] = []
    var firstByteSeconds: Double { arrivals.first?.seconds ?? .infinity }
    var seconds: Double { arrivals.last?.seconds ?? .infinity }

    init(port: UInt16, target: String, headers: String = "") throws {
        let connection = try RawConnection(port: port, timeoutSeconds: 60)
        let descriptor = connection.descriptor
        let start = DispatchTime.now().uptimeNanoseconds
        try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(headers)\r\n")
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            arrivals.append((Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, got))
        }
        guard !arrivals.isEmpty else { throw Failure(reason: "no answer to \(target)") }
    }

    /// Bytes that arrived in (from, to] seconds.
    func bytes(between from: Double, and to: Double) -> Int {
        arrivals.filter { $0.seconds > from && $0.seconds <= to }.reduce(0) { $0 + $1.bytes }
    }
}
