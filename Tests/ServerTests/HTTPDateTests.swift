import Testing

@testable import Server

@Suite struct HTTPDateTests {
    @Test(arguments: [
        (Int64(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT"),
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
        (Int64(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT"),
        (Int64(1_795_980_000), "Sun, 29 Nov 2026 19:20:00 GMT"),
    ])
    func formatsAndParsesIMFFixdate(seconds: Int64, text: String) {
        #expect(HTTPDate.format(seconds) == text)
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test func datesOutsideTheFourDigitYearsAreClampedLikeNginx() {
        #expect(HTTPDate.format(Int64.min) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(-1) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(253_402_300_799) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(Int64.max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        let ancient = Validators(size: 1, modifiedSeconds: .min, modifiedNanoseconds: 0)
        #expect(ancient.lastModified == "Thu, 01 Jan 1970 00:00:00 GMT" && ancient.lastModifiedSeconds == 0)
        #expect(ancient.isNotModified(ifNoneMatch: nil, ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"))
    }

    @Test func everySecondOfSomeYearsRoundTrips() {
        var seconds: Int64 = 0
        while seconds < 4_102_444_800 {  // up to 2100, one sample every ~3.7 days
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds)
            seconds += 317_777
        }
    }

    @Test(arguments: [
        "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "", "garbage",
    ])
    func rejectsOtherForms(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func accessLogUsesTheCommonLogFormat() {
        let line = AccessLog.line(
            client: "127.0.0.1", secondsSinceEpoch: 784_111_777, requestLine: "GET /a\"b\n HTTP/1.1", status: 200,
            bytes: 12)
        #expect(line == #"127.0.0.1 - - [06/Nov/1994:08:49:37 +0000] "GET /a\"b\x0a HTTP/1.1" 200 12"#)
        #expect(
            AccessLog.line(client: "::1", secondsSinceEpoch: 0, requestLine: "HEAD / HTTP/1.1", status: 304, bytes: nil)
                == #"::1 - - [01/Jan/1970:00:00:00 +0000] "HEAD / HTTP/1.1" 304 -"#)
    }
}
