/// The single byte range of an HTTP `Range` header (RFC 9110 §14.1.2), resolved against a blob's size.
enum ByteRange {
    /// The requested range, `nil` to send the whole blob (no header, another unit, or several ranges, which
    /// a server may ignore), or ``ServerError/rangeNotSatisfiable(size:)`` when it lies outside the blob.
    static func resolve(_ header: String?, size: Int64) throws -> ClosedRange<Int64>? {
        guard let header, header.hasPrefix("bytes=") else { return nil }
        let spec = header.dropFirst(6).trimmingSpaces
        guard !spec.contains(",") else { return nil }
        guard let dash = spec.firstIndex(of: "-") else { throw ServerError.badRequest("malformed Range header") }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces
        switch (Int64(first), Int64(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // bytes=-N: the last N bytes.
            guard suffix > 0, size > 0 else { throw ServerError.rangeNotSatisfiable(size: size) }
            return max(0, size - suffix)...(size - 1)
        case (let start?, nil) where last.isEmpty:
            guard start < size else { throw ServerError.rangeNotSatisfiable(size: size) }
            return start...(size - 1)
        case (let start?, let end?):
            guard start <= end else { throw ServerError.badRequest("malformed Range header") }
            guard start < size else { throw ServerError.rangeNotSatisfiable(size: size) }
            return start...min(end, size - 1)
        default:
            throw ServerError.badRequest("malformed Range header")
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
