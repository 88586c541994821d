import Foundation
import PhotoMetadata
import Photos

/// Small photos whose header claims another size (decompression bombs): a 16 × 16 picture encoded by the adapter,
/// then the size fields rewritten — JPEG's SOF, PNG's IHDR (its CRC recomputed, as libpng checks it), HEIF's
/// `ispe` properties.
public enum ClaimedSize {
    public static func photo(_ format: PhotoFormat, claimingWidth width: Int, height: Int) throws -> [UInt8] {
        var bytes = try TestPhotos.encode(TestPhotos.frame(width: 16, height: 16), as: format, quality: 50)
        switch format {
        case .jpeg:
            guard let sof = JPEGStructure.scan(bytes).structure?.segments.first(where: { $0.marker == 0xC0 }) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            // Precision, then height and width (16 bits each, big-endian).
            put(UInt32(height), at: sof.payload.lowerBound + 1, bytes: 2, in: &bytes)
            put(UInt32(width), at: sof.payload.lowerBound + 3, bytes: 2, in: &bytes)
        case .png:
            // Signature (8), IHDR's length (4) and type (4), then width and height; the CRC after the 13 data bytes.
            put(UInt32(width), at: 16, bytes: 4, in: &bytes)
            put(UInt32(height), at: 20, bytes: 4, in: &bytes)
            put(crc32(bytes[12..<29]), at: 29, bytes: 4, in: &bytes)
        case .heif:
            // Every `ispe`: the box type, version and flags (4), width and height (32 bits each).
            let type = Array("ispe".utf8)
            var found = false
            for index in 0..<(bytes.count - 16) where bytes[index..<(index + 4)].elementsEqual(type) {
                put(UInt32(width), at: index + 8, bytes: 4, in: &bytes)
                put(UInt32(height), at: index + 12, bytes: 4, in: &bytes)
                found = true
            }
            if !found { throw CocoaError(.fileReadCorruptFile) }
        }
        return bytes
    }

    static func put(_ value: UInt32, at offset: Int, bytes count: Int, in bytes: inout [UInt8]) {
        for k in 0..<count { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(count - 1 - k))) }
    }

    /// PNG's CRC-32 (ISO 3309, reflected polynomial 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
