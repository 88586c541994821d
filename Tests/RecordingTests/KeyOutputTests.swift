import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Recording

/// A failed live recording keeps the keys of the segments and parts it wrote and removes those it made for
/// segments that never reached the disk.
@Suite struct LiveKeyCleanupTests {
    @Test func aFailedLiveRunRemovesOnlyTheKeysNoFileOnDiskUses() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("live")
        let keysFolder = folder.url.appendingPathComponent("keys").path
        let keys = try KeyOutput(
            KeySettings(segmentsPerKey: 2, keysFolder: keysFolder), outputFolder: out.path, live: true)
        for index in 0..<4 { _ = try keys.ring.key(index) }
        // Segments 0–3 written (keys 0, 1), a part of segment 4 (key 2); key 3 was made but nothing uses it.
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("90p"), withIntermediateDirectories: true)
        for name in ["seg_00000.m4s", "seg_00003.m4s", "seg_00004.p0.m4s", "init.mp4", "index.m3u8"] {
            try Data([1]).write(to: out.appendingPathComponent("90p/" + name))
        }
        keys.discard()
        let left = try FileManager.default.contentsOfDirectory(atPath: keysFolder + "/live").sorted()
        #expect(left == ["0.key", "1.key", "2.key"])
    }
}
