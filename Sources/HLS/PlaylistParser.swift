/// The byte-level playlist parser behind ``parse(_:options:)``.
struct PlaylistParser {
    let bytes: [UInt8]
    let options: ParseOptions

    init(bytes: [UInt8], options: ParseOptions) {
        self.bytes = bytes
        self.options = options
    }

    func run() -> ParseResult {
        ParseResult(playlist: nil, diagnostics: [])
    }
}
