import Testing

@testable import HLS

@Suite(.enabled(if: Corpus.isAvailable, "shared corpus not found (../shared or FILTERZ_SHARED)"))
struct CorpusTests {
    @Test func theCorpusHasEightyPlaylists() {
        #expect(Corpus.files.count == 80)
    }

    @Test(arguments: Corpus.files)
    func everyCorpusFileParsesToAPlaylist(file: Corpus.File) {
        let result = HLS.parse(file.bytes)
        #expect(result.playlist != nil)
    }

    @Test(arguments: Corpus.valid)
    func validCorpusFilesHaveNoSyntaxErrors(file: Corpus.File) {
        let result = HLS.parse(file.bytes)
        let errors = result.errors
        #expect(errors.isEmpty, "\(errors.map(\.description))")
    }
}
