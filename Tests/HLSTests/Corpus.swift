import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import HLS

/// The shared playlist corpus (`../shared/corpus/playlists`) with its MANIFEST verdicts.
enum Corpus {
    struct File: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var isValid: Bool
        var testDescription: String { name }
    }

    static let files: [File] = {
        guard let folder = SharedData.folder("corpus/playlists"),
            let manifest = try? String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        var files: [File] = []
        for line in manifest.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 4 else { continue }
            let name = String(columns[0])
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                continue
            }
            files.append(File(name: name, bytes: Array(data), isValid: columns[3] == "valid"))
        }
        return files.sorted { $0.name < $1.name }
    }()

    static var valid: [File] { files.filter(\.isValid) }

    static func named(_ name: String) -> File? { files.first { $0.name == name } }

    static var isAvailable: Bool { !files.isEmpty }
}
