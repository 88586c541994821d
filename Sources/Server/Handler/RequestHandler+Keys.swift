/// Key delivery for AES-128 encrypted videos: `/v1/videos/{id}/keys/{n}.key` answered from the key folder
/// (`--keys`), behind the same token check as the video's media.
extension RequestHandler {
    /// The 16 bytes of key `name` of video `id` (`<keys>/<id>/<name>`), `Cache-Control: private, no-store`.
    /// With signed URLs a request without a valid token for that video gets 403 and no byte; an unknown key, a
    /// name other than `<digits>.key`, a file that is not exactly 16 bytes, or a server without a key folder: 404.
    /// Ranges and validators do not apply: a key is always sent whole, and never stored by a cache.
    func key(videoID: String, name: String, token: String?, now: Int64) -> HTTPResponse {
        if let signer {
            guard signer.isValid(token, videoID: videoID, now: now) else { return forbidden() }
        }
        let digits = name.utf8.dropLast(4)
        guard name.hasSuffix(".key"), !digits.isEmpty, digits.count <= 9,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let keys
        else {
            return error(404, "key_not_found", "no such key", json: true)
        }
        let file: ServedFolder.File
        switch keys.opening([videoID, name]) {
        case .success(let opened) where opened.size == 16: file = opened
        case .failure(.outOfDescriptors): return outOfDescriptors(json: true)
        case .success, .failure(.missing): return error(404, "key_not_found", "no such key", json: true)
        }
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "application/octet-stream"), ("Cache-Control", CachePolicy.key)],
            body: .file(FileRegion(file: file.handle, offset: 0, length: 16)))
    }
}
