import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Many clients at once, and a slow one among them. Bounded in count and time; no timing assertions beyond
/// "finishes before a generous deadline".
@Suite(.serialized, .slow) struct LoadTests {
    /// Opens `connections` keep-alive connections at once; each fetches `requests` paths in turn and checks status
    /// and length. Prints one JSON line: {"ok": n, "failed": n, "errors": [...]}.
    static let client = #"""
        import asyncio, json, resource, sys
        port, connections, requests = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        paths = json.loads(sys.argv[4])  # [[path, length], ...]
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, connections + 256)), hard))
        async def one(index, opened):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            opened.append(1)
            while len(opened) < connections:  # hold until every connection is open: all are concurrent
                await asyncio.sleep(0.01)
            ok = 0
            for r in range(requests):
                path, length = paths[(index + r) % len(paths)]
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ")[1])
                headers = dict(l.split(b": ", 1) for l in head.split(b"\r\n")[1:] if b": " in l)
                size = int(headers.get(b"Content-Length", b"0"))
                body = await reader.readexactly(size)
                if status != 200 or size != length or b"close" in headers.get(b"Connection", b""):
                    raise RuntimeError(f"{path}: {status} {size}")
                ok += 1
            writer.close()
            return ok
        async def main():
            opened = []
            results = await asyncio.wait_for(asyncio.gather(*(one(i, opened) for i in range(connections)), return_exceptions=True), 60)
            errors = [repr(r) for r in results if isinstance(r, BaseException)]
            print(json.dumps({"ok": sum(r for r in results if isinstance(r, int)), "failed": len(errors), "errors": errors[:5]}))
        asyncio.run(main())
        """#

    static func raiseFileLimit(to wanted: UInt) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(limit.rlim_max, wanted)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    @Test(.enabled(if: ExternalTool.isInstalled("python3")))
    func aThousandConcurrentKeepAliveConnectionsAllSucceed() throws {
        Self.raiseFileLimit(to: 4096)
        // A thousand connections from one address: the per-address cap is lifted, as for a proxy in front.
        let site = try TestSite(populate: { try $0.addVideo("a") }, configure: { $0.connectionsPerAddress = 0 })
        let paths: [[Any]] = [
            ["/a/v0/seg_0.ts", 2000], ["/v1/videos/a/v1/seg_1.ts", 2001], ["/a/master.m3u8", 0],
            ["/a/v0/index.m3u8", 0],
        ].map { entry in
            let path = entry[0] as! String
            let length =
                (entry[1] as! Int) > 0
                ? entry[1] as! Int
                : (try? Data(contentsOf: site.root.appendingPathComponent(String(path.dropFirst()))).count) ?? -1
            return [path, length]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: paths), as: UTF8.self)
        let result = try ExternalTool.run(
            "python3", ["-c", Self.client, String(site.port), "1000", "4", json], timeoutSeconds: 90)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["failed"] as? Int == 0, "\(summary["errors"] ?? "")")
        #expect(summary["ok"] as? Int == 4000)
    }

    @Test func aClientSendingAHeaderByteBySecondDoesNotHoldUpOthers() throws {
        let site = try TestSite { try $0.addVideo("a") }
        let slow = try RawConnection(port: site.port)
        let request = Array("GET /a/master.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let started = Date()
        var served = 0
        for byte in request.prefix(4) {
            try slow.send([byte])
            // Meanwhile other clients are answered in full (each read times out after 10 s if starved).
            for index in 0..<25 {
                let response = try fetch(site.port, "GET", "/a/v0/seg_\(index % 3).ts")
                if response.status == 200 && response.body.count >= 2000 { served += 1 }
            }
            Thread.sleep(forTimeInterval: 1)
        }
        #expect(served == 100)
        try slow.send(Array(request.dropFirst(4)))
        #expect(try slow.readResponse().status == 200)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func idleAndUnfinishedConnectionsAreClosedAfterTheirTimeouts() throws {
        let site = try TestSite(
            populate: { try $0.addVideo("a") },
            configure: {
                $0.timeouts.idleSeconds = 1
                $0.timeouts.requestHeadSeconds = 1
            })
        let idle = try RawConnection(port: site.port, timeoutSeconds: 6)
        try idle.send("GET /a/mas")  // and then nothing: the head is not complete in time
        #expect(try idle.readResponse().status == 408)
        #expect(idle.isClosedByPeer())
        let quiet = try RawConnection(port: site.port, timeoutSeconds: 6)
        #expect(quiet.isClosedByPeer())
    }

    @Test func stopFinishesResponsesInFlightAndRefusesNewConnections() throws {
        let site = try TestSite { site in
            try site.write("big/file.ts", [UInt8](repeating: 0x47, count: 8 << 20))
        }
        let connection = try RawConnection(port: site.port)
        try connection.send("GET /big/file.ts HTTP/1.1\r\nHost: x\r\n\r\n")
        // Read the first bytes only: the response is now in flight (the socket buffers cannot hold 8 MB).
        var first = [UInt8](repeating: 0, count: 1024)
        #expect(recv(connection.descriptor, &first, first.count, 0) > 0)
        let stopped = DispatchSemaphore(value: 0)
        let server = site.server!
        // A thread of its own: the global queues may all be busy with other tests' blocking waits.
        Thread.detachNewThread {
            server.stop(graceSeconds: 20)
            stopped.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while server.isAcceptingConnections && Date() < deadline { usleep(1_000) }
        #expect(!server.isAcceptingConnections)
        #expect(throws: RawHTTPError.self) {
            _ = try RawConnection(port: site.port, timeoutSeconds: 2).request("GET", "/big/file.ts")
        }
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = recv(connection.descriptor, &chunk, chunk.count, 0)
            if got <= 0 { break }
            total += got
        }
        #expect(total + 1024 >= 8 << 20)  // headers + every byte of the body arrived
        #expect(stopped.wait(timeout: .now() + 30) == .success)
    }
}
