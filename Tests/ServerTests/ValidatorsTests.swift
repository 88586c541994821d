import Testing

@testable import Server

@Suite struct ValidatorsTests {
    let validators = Validators(size: 5000, modifiedSeconds: 784_111_777, modifiedNanoseconds: 5)

    @Test func entityTagChangesWithSizeAndNanoseconds() {
        #expect(validators.entityTag == "\"2ebc98a1.5-1388\"")
        #expect(
            Validators(size: 5000, modifiedSeconds: 784_111_777, modifiedNanoseconds: 6).entityTag
                != validators.entityTag)
        #expect(
            Validators(size: 5001, modifiedSeconds: 784_111_777, modifiedNanoseconds: 5).entityTag
                != validators.entityTag)
        #expect(validators.lastModified == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func ifNoneMatchDecidesWhenPresent() {
        let tag = validators.entityTag
        #expect(validators.isNotModified(ifNoneMatch: tag, ifModifiedSince: nil))
        #expect(validators.isNotModified(ifNoneMatch: "W/" + tag, ifModifiedSince: nil))
        #expect(validators.isNotModified(ifNoneMatch: "\"other\", " + tag, ifModifiedSince: nil))
        #expect(validators.isNotModified(ifNoneMatch: "*", ifModifiedSince: nil))
        #expect(!validators.isNotModified(ifNoneMatch: "\"other\"", ifModifiedSince: nil))
        // A failing If-None-Match wins over a matching If-Modified-Since.
        #expect(!validators.isNotModified(ifNoneMatch: "\"other\"", ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"))
    }

    @Test func ifModifiedSinceComparesWholeSeconds() {
        #expect(validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: "Mon, 07 Nov 1994 08:49:37 GMT"))
        #expect(!validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: "Sun, 06 Nov 1994 08:49:36 GMT"))
        #expect(!validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: "yesterday"))
        #expect(!validators.isNotModified(ifNoneMatch: nil, ifModifiedSince: nil))
    }

    @Test func ifRangeNeedsTheExactVersion() {
        #expect(validators.allowsRange(ifRange: nil))
        #expect(validators.allowsRange(ifRange: validators.entityTag))
        #expect(validators.allowsRange(ifRange: validators.lastModified))
        #expect(!validators.allowsRange(ifRange: "\"old\""))
        #expect(!validators.allowsRange(ifRange: "Sat, 05 Nov 1994 08:49:37 GMT"))
    }

    @Test func variantsOfTheBodyGetTheirOwnTags() {
        let a = validators.variant("token-a"), b = validators.variant("token-b")
        #expect(a.entityTag != validators.entityTag && a.entityTag != b.entityTag)
        #expect(a.entityTag.hasPrefix("\"") && a.entityTag.hasSuffix("\""))
    }
}
