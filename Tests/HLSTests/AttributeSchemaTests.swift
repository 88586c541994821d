import Testing

@testable import HLS

/// The tables that the parser reads attribute lists through and the writer writes them with.
@Suite struct AttributeSchemaTests {
    struct Summary: Sendable, CustomTestStringConvertible {
        var tag: TagName
        var names: [String]
        var required: [String]
        var testDescription: String { tag.rawValue }
    }

    static func summary<Model>(_ schema: AttributeSchema<Model>) -> Summary {
        Summary(
            tag: schema.tag, names: schema.fields.map(\.name), required: schema.required.map { schema.fields[$0].name })
    }

    static let all: [Summary] = [
        summary(TagSchemas.key), summary(TagSchemas.map), summary(TagSchemas.part), summary(TagSchemas.dateRange),
        summary(TagSchemas.start), summary(TagSchemas.serverControl), summary(TagSchemas.partInf),
        summary(TagSchemas.skip), summary(TagSchemas.preloadHint), summary(TagSchemas.renditionReport),
        summary(TagSchemas.rendition), summary(TagSchemas.variant), summary(TagSchemas.iFrameVariant),
        summary(TagSchemas.sessionData), summary(TagSchemas.contentSteering),
    ]

    @Test(arguments: all)
    func eachAttributeIsNamedOnceInUpperCaseAndEveryRequiredOneIsAField(_ schema: Summary) {
        #expect(Set(schema.names).count == schema.names.count)
        for name in schema.names {
            #expect(name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        }
        #expect(schema.required.isEmpty == (schema.tag == .serverControl))
        #expect(Set(schema.required).isSubset(of: schema.names))
    }

    @Test func fieldLookupComparesBytesAndFindsOnlyExactNames() {
        let schema = TagSchemas.variant
        let text: [UInt8] = Array("BANDWIDTHAVERAGE-BANDWIDTHBANDWIDTXCLOSED-CAPTIONS".utf8)
        text.withUnsafeBufferPointer { bytes in
            #expect(schema.fieldIndex(bytes, 0..<9).map { schema.fields[$0].name } == "BANDWIDTH")
            #expect(schema.fieldIndex(bytes, 9..<26).map { schema.fields[$0].name } == "AVERAGE-BANDWIDTH")
            #expect(schema.fieldIndex(bytes, 26..<35) == nil)
            #expect(schema.fieldIndex(bytes, 35..<50).map { schema.fields[$0].name } == "CLOSED-CAPTIONS")
            #expect(schema.fieldIndex(bytes, 0..<0) == nil)
        }
    }

    @Test func requiredAttributesAreReportedInTheSchemaOrder() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART:INDEPENDENT=YES\n#EXTINF:6,\na.ts\n"
        let codes = HLS.parse(text).diagnostics.map(\.code.rawValue)
        #expect(codes == ["part.uri-missing", "part.duration-missing"])
    }

    @Test func clientAttributesOfADateRangeAreWrittenBeforeTheSCTE35Attributes() {
        let range = DateRange(
            id: "ad", plannedDuration: 30, scte35Out: HexadecimalSequence(bytes: [0xFC, 0x30]), endOnNext: false,
            clientAttributes: [Attribute(name: "X-COM-EXAMPLE-AD-ID", value: .quotedString("42"))])
        var output = TextOutput()
        output.element(range, TagSchemas.dateRange)
        #expect(
            String(decoding: output.bytes, as: UTF8.self)
                == "#EXT-X-DATERANGE:ID=\"ad\",PLANNED-DURATION=30.0,X-COM-EXAMPLE-AD-ID=\"42\",SCTE35-OUT=0xFC30\n")
    }
}
