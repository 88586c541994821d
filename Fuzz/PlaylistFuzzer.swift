// libFuzzer entry point for the HLS playlist parser, validator, writer, facts and WebVTT reader.
//
// Not part of Package.swift: `scripts/fuzz.sh` compiles this file together with Sources/HLS as one module
// (`swiftc -sanitize=fuzzer,address -parse-as-library`), so HLS's internal names are visible without `HLS.`.
// Every call below promises "never traps" for any bytes; the sanitizer turns a broken promise into a crash report.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []

    // Lenient: the model and every diagnostic; then the validator, the facts, the writer and a re-parse.
    let lenient = parseAndValidate(bytes, options: ParseOptions(playlistURI: "https://cdn.example/v/master.m3u8?token=t&x=1"))
    if let playlist = lenient.playlist {
        _ = playlist.facts(diagnostics: lenient.diagnostics).rendered(indent: nil)
        for mode in [PlaylistWriter.Mode.preservingSource, .canonical] {
            let written = PlaylistWriter(mode: mode).writeBytes(playlist)
            _ = parse(written)
        }
        let base = "https://cdn.example/v/master.m3u8?token=t"
        switch playlist {
        case .media(let media):
            for segment in media.segments.prefix(64) { _ = URIReference.resolve(segment.uri, against: base) }
            _ = media.totalDuration
        case .multivariant(let multivariant):
            for variant in multivariant.variants.prefix(64) { _ = URIReference.resolve(variant.uri, against: base) }
        }
    }
    for diagnostic in lenient.diagnostics.prefix(16) { _ = diagnostic.formatted(file: "fuzz.m3u8") }

    // Strict: stops at the first error.
    _ = parseAndValidate(bytes, options: ParseOptions(strict: true))

    // The same bytes as a WebVTT subtitle segment.
    _ = WebVTTDocument.parse(bytes)
    return 0
}
