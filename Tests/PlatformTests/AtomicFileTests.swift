import FilterzTestSupport
import Foundation
import RealClients
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

    @Test func temporaryNameIsHiddenInTheSameFolderAndUnpredictable() {
        let first = AtomicFile.temporaryName(for: "/out/720p/index.m3u8")
        #expect(first.hasPrefix("/out/720p/.index.m3u8.") && first.hasSuffix(".tmp"))
        #expect(first.count == "/out/720p/.index.m3u8.".count + 16 + ".tmp".count)
        #expect(AtomicFile.temporaryName(for: "/out/720p/index.m3u8") != first)
        let local = AtomicFile.temporaryName(for: "master.m3u8")
        #expect(local.hasPrefix(".master.m3u8.") && !local.contains("/"))
    }

    /// A symbolic link planted where the temporary file used to be made (`.name.tmp`, a fixed name) is not written
    /// through: its target keeps its bytes, and the file is written under its own name.
    @Test func aLinkPlantedAtTheOldTemporaryNameIsNotFollowed() throws {
        let folder = try TemporaryFolder()
        let victim = folder.url.appendingPathComponent("victim").path
        try AtomicFile.write("precious\n", to: victim)
        let path = folder.url.appendingPathComponent("photo.jpg").path
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent(".photo.jpg.tmp").path, withDestinationPath: victim)
        try AtomicFile.write([1, 2, 3], to: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                ".photo.jpg.tmp", "photo.jpg", "victim",
            ])
    }

    /// A symbolic link at the destination itself is replaced by the file; its target is untouched.
    @Test func aLinkAtTheDestinationIsReplacedNotWrittenThrough() throws {
        let folder = try TemporaryFolder()
        let victim = folder.url.appendingPathComponent("victim").path
        try AtomicFile.write("precious\n", to: victim)
        let path = folder.url.appendingPathComponent("out.png").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        try AtomicFile.write([9], to: path, mode: 0o600)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(FileManager.default.contents(atPath: path) == Data([9]))
    }

    @Test func anUnwritableFolderIsAnErrorNamingThePath() {
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: "/nonexistent-folder/x.ts") }
    }
}
