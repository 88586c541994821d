import Encryption
import FilterzTestSupport
import Foundation
import RealClients
import Testing

@Suite struct KeyRingTests {
    @Test func randomKeysAreSixteenBytesAndDiffer() throws {
        let keys = try (0..<64).map { _ in try ContentKey.random().bytes }
        #expect(keys.allSatisfy { $0.count == 16 })
        #expect(Set(keys).count == keys.count)
    }

    @Test func aKeyIsWrittenOnFirstUseWithMode0600AndReadsBack() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.path + "/keys/warm-film"
        let ring = try KeyRing(folder: folder)
        let first = try ring.key(0)
        #expect(try ring.key(0) == first)
        let second = try ring.key(1)
        #expect(second != first)
        #expect(ring.madeIndices == [0, 1])
        let path = folder + "/0.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? Int) == 16)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try KeyRing.read(path) == first)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["0.key", "1.key"])
    }

    @Test func aKeyFileOfAnotherLengthIsRefused() throws {
        let temporary = try TemporaryFolder()
        let path = temporary.url.path + "/short.key"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(throws: EncryptionError.self) { try KeyRing.read(path) }
        let long = temporary.url.path + "/long.key"
        try Data(repeating: 7, count: 17).write(to: URL(fileURLWithPath: long))
        #expect(throws: EncryptionError.self) { try KeyRing.read(long) }
    }
}
