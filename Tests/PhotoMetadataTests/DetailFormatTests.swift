import PhotoMetadata
import Testing

/// How the detail screen writes numbers, at the edges of each rule.
@Suite struct DetailFormatTests {
    struct SizeCase: Sendable, CustomTestStringConvertible {
        var bytes: Int
        var text: String
        var testDescription: String { "\(bytes) → \(text)" }
    }

    static let sizes: [SizeCase] = [
        .init(bytes: 0, text: "0 bytes"), .init(bytes: 1, text: "1 byte"), .init(bytes: 2, text: "2 bytes"),
        .init(bytes: 999, text: "999 bytes"), .init(bytes: 1000, text: "1.0 KB"), .init(bytes: 1049, text: "1.0 KB"),
        .init(bytes: 1050, text: "1.1 KB"), .init(bytes: 99_949, text: "99.9 KB"), .init(bytes: 99_950, text: "100 KB"),
        .init(bytes: 999_499, text: "999 KB"), .init(bytes: 999_500, text: "1.0 MB"),
        .init(bytes: 999_949, text: "1.0 MB"),
        .init(bytes: 2_400_000, text: "2.4 MB"), .init(bytes: 2_449_999, text: "2.4 MB"),
        .init(bytes: 2_450_000, text: "2.5 MB"),
        .init(bytes: 24_300_000, text: "24.3 MB"), .init(bytes: 243_000_000, text: "243 MB"),
        .init(bytes: 999_500_000, text: "1.0 GB"), .init(bytes: 1_234_567_890_123, text: "1.2 TB"),
    ]

    @Test(arguments: sizes)
    func fileSizesReadAsPhonesShowThem(_ c: SizeCase) {
        #expect(DetailFormat.fileSize(c.bytes) == c.text)
    }

    @Test func shutterSpeedsAreFractionsBelowAThirdOfASecond() {
        #expect(DetailFormat.shutter(Rational(1, 120)) == "1/120 s")
        #expect(DetailFormat.shutter(Rational(10, 1250)) == "1/125 s")
        #expect(DetailFormat.shutter(Rational(1, 4)) == "1/4 s")
        #expect(DetailFormat.shutter(Rational(3, 10)) == "0.3 s")
        #expect(DetailFormat.shutter(Rational(5, 2)) == "2.5 s")
        #expect(DetailFormat.shutter(Rational(30, 1)) == "30 s")
        #expect(DetailFormat.shutter(Rational(1, 1)) == "1 s")
        #expect(DetailFormat.shutter(Rational(1, 0)) == nil)
        #expect(DetailFormat.shutter(Rational(0, 1)) == nil)
    }

    @Test func aperturesFocalLengthsAndCoordinates() {
        #expect(DetailFormat.aperture(1.8) == "ƒ/1.8")
        #expect(DetailFormat.aperture(2.0) == "ƒ/2")
        #expect(DetailFormat.aperture(1.78) == "ƒ/1.8")
        #expect(DetailFormat.aperture(11) == "ƒ/11")
        #expect(DetailFormat.focalLength(4.2) == "4.2 mm")
        #expect(DetailFormat.focalLength(26) == "26 mm")
        #expect(DetailFormat.coordinate(35.6585805) == "35.658581")
        #expect(DetailFormat.coordinate(-0.1275) == "-0.127500")
        #expect(DetailFormat.coordinate(-0.0000001) == "0.000000")
        #expect(DetailFormat.altitude(-4) == "-4 m")
        #expect(DetailFormat.altitude(150.46) == "150.5 m")
    }

    @Test func orientationsAreNamedAsExiftoolNamesThem() {
        #expect(DetailFormat.orientation(1) == "Horizontal (normal)")
        #expect(DetailFormat.orientation(6) == "Rotate 90 CW")
        #expect(DetailFormat.orientation(8) == "Rotate 270 CW")
        #expect(DetailFormat.orientation(0) == nil)
        #expect(DetailFormat.orientation(9) == nil)
    }

    @Test func captureTimesKeepTheirOffsetAndFraction() throws {
        let time = try #require(CaptureTimestamp(dateTime: "2024:05:01 14:03:22", subSeconds: "120", offset: "+09:00"))
        #expect(time.iso8601 == "2024-05-01T14:03:22.120+09:00")
        #expect(time.display == "2024-05-01 14:03:22 +09:00")
        let local = try #require(CaptureTimestamp(dateTime: "2024:12:31 23:59:59"))
        #expect(local.iso8601 == "2024-12-31T23:59:59")
        #expect(local.display == "2024-12-31 23:59:59 (no time zone)")
        #expect(CaptureTimestamp(dateTime: "0000:00:00 00:00:00") == nil)
        #expect(CaptureTimestamp(dateTime: "    :  :     :  :  ") == nil)
        #expect(CaptureTimestamp(dateTime: "2024:13:01 10:00:00") == nil)
        #expect(CaptureTimestamp(dateTime: "2024:05:01 14:03:22", offset: "+9:00")?.offset == nil)
        #expect(CaptureTimestamp(dateTime: "2024:05:01 14:03:22", offset: "-05:30")?.offset == "-05:30")
    }
}
