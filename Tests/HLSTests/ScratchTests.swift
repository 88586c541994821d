import Testing
@testable import HLS

@Suite struct ScratchTests {
    @Test func dump() {
        for file in Corpus.files where !file.isValid {
            let r = HLS.parse(file.bytes)
            print("== \(file.name): \(r.playlist?.kind.rawValue ?? "nil") " + r.diagnostics.filter { $0.severity != .note }.map { "\($0.location) \($0.code)" }.joined(separator: "; "))
        }
    }
}
