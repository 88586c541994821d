import Testing

@testable import Server

@Suite struct URLSignerTests {
    let signer = URLSigner(secret: "s3cret")

    @Test func aTokenOpensItsVideoUntilItExpires() {
        let token = signer.token(videoID: "warm-film", expiresAt: 2000)
        #expect(signer.isValid(token, videoID: "warm-film", now: 1999))
        #expect(!signer.isValid(token, videoID: "warm-film", now: 2000))
        #expect(!signer.isValid(token, videoID: "cool-film", now: 1000))
    }

    @Test func forgedTokensAreRefused() {
        let token = signer.token(videoID: "warm-film", expiresAt: 2000)
        let signature = token.split(separator: ".")[1]
        #expect(!signer.isValid("3000.\(signature)", videoID: "warm-film", now: 1000))  // expiry changed
        #expect(!URLSigner(secret: "other").isValid(token, videoID: "warm-film", now: 1000))
        #expect(!signer.isValid(String(token.dropLast()) + "0", videoID: "warm-film", now: 1000))
        for bad in [nil, "", ".", "2000.", "abc.def", "2000", "2000.zz"] as [String?] {
            #expect(!signer.isValid(bad, videoID: "warm-film", now: 1000))
        }
    }

    @Test func theSignatureIsHMACSHA256OverIdAndExpiry() {
        // openssl: printf 'warm-film\n2000' | openssl dgst -sha256 -hmac s3cret
        #expect(signer.token(videoID: "warm-film", expiresAt: 2000) == "2000." + URLSignerTests.expected)
        #expect(
            signer.signedMasterURL(videoID: "warm film", expiresAt: 5).hasPrefix(
                "/v1/videos/warm%20film/master.m3u8?token=5."))
    }

    static let expected = "e3ecac08e4d8e5e2b3feec490cb54d5c63cb5d661867b80a73406f7c15fa34a7"
}
