import Encryption
import FilterzTestSupport
import Foundation
import RealClients
import Testing

@Suite struct AES128CBCTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    static func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// NIST SP 800-38A, F.2.1 (CBC-AES128.Encrypt).
    static let nistKey = hex("2b7e151628aed2a6abf7158809cf4f3c")
    static let nistIV = hex("000102030405060708090a0b0c0d0e0f")
    static let nistPlaintext = hex(
        "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
    static let nistCiphertext = hex(
        "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7")

    @Test func nistVectorsEncryptToTheirCiphertextFollowedByAWholePaddingBlock() throws {
        let sealed = try AES128CBC.encrypt(Self.nistPlaintext, key: Self.nistKey, iv: Self.nistIV)
        #expect(sealed.count == 80)
        #expect(Array(sealed.prefix(64)) == Self.nistCiphertext)
        #expect(try AES128CBC.decrypt(sealed, key: Self.nistKey, iv: Self.nistIV) == Self.nistPlaintext)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 188, 1000, 65_536])
    func everyLengthRoundTripsWithOneToSixteenBytesOfPadding(length: Int) throws {
        var generator = SeededGenerator(seed: UInt64(length) + 1)
        let plain = generator.bytes(length)
        let key = generator.bytes(16), iv = generator.bytes(16)
        let sealed = try AES128CBC.encrypt(plain, key: key, iv: iv)
        #expect(sealed.count == (length / 16 + 1) * 16)
        #expect(try AES128CBC.decrypt(sealed, key: key, iv: iv) == plain)
    }

    /// With a wrong key the last block decrypts to noise, which ends in valid PKCS#7 padding about once in 256
    /// keys; this seed's key is one of the other 255.
    @Test func aWrongKeyIsReportedAsBadPadding() throws {
        var generator = SeededGenerator(seed: 7)
        let plain = generator.bytes(4096), key = generator.bytes(16), iv = generator.bytes(16)
        let sealed = try AES128CBC.encrypt(plain, key: key, iv: iv)
        var wrong = key
        wrong[0] ^= 1
        #expect(throws: EncryptionError.badPadding) { try AES128CBC.decrypt(sealed, key: wrong, iv: iv) }
    }

    @Test func aTruncatedCiphertextIsNotBlockAligned() throws {
        let sealed = try AES128CBC.encrypt(Self.nistPlaintext, key: Self.nistKey, iv: Self.nistIV)
        #expect(throws: EncryptionError.notBlockAligned(bytes: 79)) {
            try AES128CBC.decrypt(Array(sealed.dropLast()), key: Self.nistKey, iv: Self.nistIV)
        }
        #expect(throws: EncryptionError.notBlockAligned(bytes: 0)) {
            try AES128CBC.decrypt([], key: Self.nistKey, iv: Self.nistIV)
        }
    }

    @Test func keysAndIVsOfTheWrongLengthAreRefused() {
        #expect(throws: EncryptionError.badLength(what: "key", bytes: 15)) {
            try AES128CBC.encrypt([1, 2, 3], key: Array(Self.nistKey.prefix(15)), iv: Self.nistIV)
        }
        #expect(throws: EncryptionError.badLength(what: "IV", bytes: 17)) {
            try AES128CBC.encrypt([1, 2, 3], key: Self.nistKey, iv: Self.nistIV + [0])
        }
    }

    @Test(.enabled(if: ExternalTool.isInstalled("openssl")))
    func opensslEncDecryptsWhatWeEncryptAndWeDecryptWhatItEncrypts() throws {
        var generator = SeededGenerator(seed: 42)
        for length in [0, 31, 32, 5000] {
            let plain = generator.bytes(length), key = generator.bytes(16), iv = generator.bytes(16)
            let keyHex = Self.hexString(key), ivHex = Self.hexString(iv)
            let ours = try AES128CBC.encrypt(plain, key: key, iv: iv)
            let theirs = try ExternalTool.runFeeding(
                "openssl", ["enc", "-aes-128-cbc", "-K", keyHex, "-iv", ivHex], input: plain)
            #expect(ours == theirs, "length \(length)")
            let openedByThem = try ExternalTool.runFeeding(
                "openssl", ["enc", "-d", "-aes-128-cbc", "-K", keyHex, "-iv", ivHex], input: ours)
            #expect(openedByThem == plain, "length \(length)")
            #expect(try AES128CBC.decrypt(theirs, key: key, iv: iv) == plain, "length \(length)")
        }
    }
}
