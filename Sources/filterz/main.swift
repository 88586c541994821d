// `filterz`: runs a plain `inspect` of a playlist file or standard input itself, and hands every other command
// line to `filterz-full` beside it (same process, same arguments). Inspecting a playlist then costs the parse,
// not the loading of libav, libcurl and the other libraries the full command set links. Both give the same
// output for a plain inspection (`LeanInspectTests`). A large file's heap is prepared first (`HeapAhead`).
import CLIKit
import Glibc
import Inspect

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "inspect",
    let parsed = try? ArgumentParser.parse(
        Array(arguments.dropFirst()), spec: InspectCommandLine.spec, commandPath: "filterz inspect"),
    InspectCommandLine.isPlain(parsed), !arguments.contains("--help"), !arguments.contains("-h")
{
    let context = CommandContext(
        stdout: FileDescriptorOutput.standardOutput, stderr: FileDescriptorOutput.standardError,
        readStandardInput: StandardInput.bytes(upTo:))
    do {
        let location = try parsed.positional(0, "playlist")
        let file = PlaylistFile()
        HeapAhead.prepare(forFile: location, maximumBytes: file.maximumBytes)
        let bytes = try file.load(location, readStandardInput: context.readStandardInput)
        let strict = try parsed.get(InspectCommandLine.strict)
        let inspection = Inspection(location: location, bytes: bytes, strict: strict, recursive: false)
        InspectCommandLine.write(inspection, json: try parsed.get(InspectCommandLine.json), to: context.stdout)
        let code = InspectCommandLine.exitStatus(
            inspection, problems: InspectCommandLine.problems(inspection), commandPath: parsed.commandPath, context)
        // The process ends here without freeing the playlist: the kernel takes the memory back at once, where
        // releasing 100,000 segments one by one would take longer than validating them.
        withExtendedLifetime(inspection) { exit(code) }
    } catch {
        context.stderr.line("filterz inspect: error: \(error.description)")
        exit(error.exitCode)
    }
}
FullCommandSet.exec(arguments)
