import CLIKit
import Foundation
import Recording

/// `--encrypt aes-128 [--key-rotation N] [--keys DIR]` of `record` and `package`.
enum EncryptionOptions {
    static let encrypt = Option.optional(
        "--encrypt", placeholder: "aes-128",
        help: "Encrypt video and audio segments (AES-128-CBC, RFC 8216bis §5.2); subtitles stay clear.")
    static let keyRotation = Option.optionalInteger(
        "--key-rotation", placeholder: "n", in: 1...1_000_000,
        help: "With --encrypt: a new key every n segments (default: one key per video).")
    static let keys = Option.optional(
        "--keys", placeholder: "folder", shownDefault: "~/.local/state/filterz/keys",
        help: "With --encrypt: where keys go, as <folder>/<video id>/<n>.key (mode 0600); never inside --out.")

    static let specs: [OptionSpec] = [encrypt.spec, keyRotation.spec, keys.spec]

    /// Nil without `--encrypt`. `environment` (the command's) places the default keys folder.
    static func parse(
        _ args: ParsedArguments, outputFolder: String, environment: [String: String]
    ) throws(CLIError) -> KeySettings? {
        guard let method = try args.get(encrypt) else {
            if args.isGiven(keyRotation) { throw .usage("\(keyRotation.name) needs --encrypt aes-128") }
            if args.isGiven(keys) { throw .usage("\(keys.name) needs --encrypt aes-128") }
            return nil
        }
        guard method == "aes-128" else { throw .usage("--encrypt expects aes-128, got '\(method)'") }
        let segmentsPerKey = try args.get(keyRotation)
        let home = environment["HOME"]
        let folder: String
        if let given = try args.get(Self.keys) { folder = given } else { folder = try defaultKeysFolder(environment) }
        let keys = KeySettings.absolute(folder, home: home)
        let out = KeySettings.absolute(outputFolder, home: home)
        if keys == out || keys.hasPrefix(out + "/") {
            throw .usage("--keys \(keys) is inside --out \(out), where anyone who can read the segments reads the keys")
        }
        return KeySettings(segmentsPerKey: segmentsPerKey, keysFolder: keys)
    }

    /// `$XDG_STATE_HOME/filterz/keys`, or `$HOME/.local/state/filterz/keys` (of the command's environment):
    /// outside every folder a package is written to or served from. With neither set, `--keys` must be given.
    static func defaultKeysFolder(_ environment: [String: String]) throws(CLIError) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/filterz/keys" }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw .usage("--encrypt needs --keys FOLDER here: neither XDG_STATE_HOME nor HOME names a folder")
        }
        return home + "/.local/state/filterz/keys"
    }
}
