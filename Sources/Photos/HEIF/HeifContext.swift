internal import CHeif

/// A failed libheif call as a `PhotoError` with libheif's message.
func check(_ error: heif_error, _ function: String) throws(PhotoError) {
    guard error.code != heif_error_Ok else { return }
    throw .library(
        name: "libheif", function: function,
        message: error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
}

/// libheif's process-wide set-up (`heif_init`), done once before the first context.
enum HeifLibrary {
    static let initialised: Bool = heif_init(nil).code == heif_error_Ok
}

/// Owns a `heif_context` (`heif_context_alloc`, `heif_context_free` in `deinit`) and, for a context read from
/// a file's bytes, those bytes, which libheif reads through a `heif_reader` as it needs them: the boxes it parses
/// and, when an image is decoded, that image's data. No copy of the file is made (a large `mdat` or `free` box
/// is skipped, not read).
final class HeifContext {
    let pointer: OpaquePointer
    private var file: [UInt8] = []
    private var position = 0
    /// libheif keeps the reader's address for the context's life.
    private let reader: UnsafeMutablePointer<heif_reader>

    init() throws(PhotoError) {
        _ = HeifLibrary.initialised
        guard let pointer = heif_context_alloc() else {
            throw .library(name: "libheif", function: "heif_context_alloc", message: "out of memory")
        }
        self.pointer = pointer
        var functions = heif_reader()
        functions.reader_api_version = 1
        functions.get_position = { userdata in Int64(HeifContext.from(userdata).position) }
        functions.read = { data, size, userdata in
            let context = HeifContext.from(userdata)
            guard size <= context.file.count - context.position else { return 1 }
            guard size > 0 else { return 0 }
            guard let data else { return 1 }
            context.file.withUnsafeBytes { file in
                if let base = file.baseAddress { data.copyMemory(from: base + context.position, byteCount: size) }
            }
            context.position += size
            return 0
        }
        functions.seek = { position, userdata in
            let context = HeifContext.from(userdata)
            guard position >= 0, position <= Int64(context.file.count) else { return 1 }
            context.position = Int(position)
            return 0
        }
        functions.wait_for_file_size = { target, userdata in
            target <= Int64(HeifContext.from(userdata).file.count)
                ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
        }
        reader = .allocate(capacity: 1)
        reader.initialize(to: functions)
    }

    deinit {
        heif_context_free(pointer)
        reader.deinitialize(count: 1)
        reader.deallocate()
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> HeifContext {
        Unmanaged<HeifContext>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Reads a HEIF file's structure (the images are decoded later, one by one, their data read then).
    func read(_ bytes: [UInt8]) throws(PhotoError) {
        file = bytes
        position = 0
        try check(
            heif_context_read_from_reader(pointer, reader, Unmanaged.passUnretained(self).toOpaque(), nil),
            "heif_context_read_from_reader")
    }

    /// The primary image.
    func primaryImage() throws(PhotoError) -> HeifImageHandle {
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(pointer, &handle), "heif_context_get_primary_image_handle")
        guard let handle else {
            throw .library(name: "libheif", function: "heif_context_get_primary_image_handle", message: "no image")
        }
        return HeifImageHandle(handle)
    }

    /// The file, written through libheif's writer callback.
    func write() throws(PhotoError) -> [UInt8] {
        let sink = ByteSink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            if let userdata, let data {
                Unmanaged<ByteSink>.fromOpaque(userdata).takeUnretainedValue().bytes += UnsafeRawBufferPointer(
                    start: data, count: size)
            }
            return heif_error(
                code: heif_error_Ok, subcode: heif_suberror_Unspecified,
                message: UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self))
        }
        let error = withExtendedLifetime(sink) {
            heif_context_write(pointer, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        try check(error, "heif_context_write")
        return sink.bytes
    }

    private final class ByteSink {
        var bytes: [UInt8] = []
    }
}
