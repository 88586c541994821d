import FilterzTestSupport
import Foundation
import Testing

@testable import Platform

@Suite struct AtomicFileTests {
    @Test func replacesTheFileWholeAndLeavesNoTemporaryBehind() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("index.m3u8").path
        try AtomicFile.write("#EXTM3U\nold\n", to: path)
        try AtomicFile.write("#EXTM3U\nnew\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "#EXTM3U\nnew\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["index.m3u8"])
    }

    @Test func temporaryNameIsHiddenInTheSameFolder() {
        #expect(AtomicFile.temporaryName(for: "/out/720p/index.m3u8") == "/out/720p/.index.m3u8.tmp")
        #expect(AtomicFile.temporaryName(for: "master.m3u8") == ".master.m3u8.tmp")
    }

    @Test func anUnwritableFolderIsAnErrorNamingThePath() {
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: "/nonexistent-folder/x.ts") }
    }
}
