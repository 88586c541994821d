/// An ICC v2 display profile made for the tests (no profile file is committed): header, description, copyright,
/// white point, the three primaries' XYZ columns and gamma-2.2 curves; `padding` adds a private tag of that many
/// bytes, so a profile can be made larger than one JPEG APP2 chunk.
public enum TestICCProfile {
    public static func make(name: String = "Filterz test RGB", padding: Int = 0) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
        func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
            Array("XYZ ".utf8) + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
        }
        let curve = Array("curv".utf8) + [0, 0, 0, 0] + be32(1) + [2, 0x33, 0, 0]  // u8Fixed8 2.2 (0x0233)
        var tags: [(String, [UInt8])] = [
            (
                "desc",
                Array("desc".utf8) + [0, 0, 0, 0] + be32(UInt32(name.utf8.count + 1)) + Array(name.utf8) + [0]
                    + [UInt8](repeating: 0, count: 12 + 67)
            ),
            ("cprt", Array("text".utf8) + [0, 0, 0, 0] + Array("No copyright, test data\0".utf8)),
            ("wtpt", xyz(0.9505, 1.0, 1.0890)),
            ("rXYZ", xyz(0.4361, 0.2225, 0.0139)), ("gXYZ", xyz(0.3851, 0.7169, 0.0971)),
            ("bXYZ", xyz(0.1431, 0.0606, 0.7141)),
            ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        if padding > 0 {
            tags.append(("zzzz", Array("data".utf8) + [0, 0, 0, 0] + (0..<padding).map { UInt8($0 % 251) }))
        }
        var offset = 128 + 4 + 12 * tags.count
        var table = be32(UInt32(tags.count)), data: [UInt8] = []
        for (signature, body) in tags {
            table += Array(signature.utf8) + be32(UInt32(offset)) + be32(UInt32(body.count))
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            data += padded
            offset += padded.count
        }
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])  // version 2.1
        header.replaceSubrange(12..<16, with: Array("mntr".utf8))
        header.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        header.replaceSubrange(20..<24, with: Array("XYZ ".utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        header.replaceSubrange(68..<80, with: s15(0.9642) + s15(1.0) + s15(0.8249))  // D50 illuminant
        var profile = header + table + data
        profile.replaceSubrange(0..<4, with: be32(UInt32(profile.count)))
        return profile
    }
}
