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
/// memory, the copy of the file's bytes it reads from (libheif keeps pointing into them).
final class HeifContext {
    let pointer: OpaquePointer
    private var file: UnsafeMutableBufferPointer<UInt8>?

    init() throws(PhotoError) {
        _ = HeifLibrary.initialised
        guard let pointer = heif_context_alloc() else {
            throw .library(name: "libheif", function: "heif_context_alloc", message: "out of memory")
        }
        self.pointer = pointer
    }

    deinit {
        heif_context_free(pointer)
        file?.deallocate()
    }

    /// Reads a HEIF file's structure (the images are decoded later, one by one).
    func read(_ bytes: [UInt8]) throws(PhotoError) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = copy.initialize(from: bytes)
        file = copy
        try check(
            heif_context_read_from_memory_without_copy(pointer, copy.baseAddress, bytes.count, nil),
            "heif_context_read_from_memory_without_copy")
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
