import Foundation

/// Encrypted attachment blobs as files under one directory: `<directory>/<id>` once complete,
/// `<directory>/incoming/<id>` while an upload streams in (never visible to downloads).
/// The server never sees plaintext; it stores what clients encrypted.
public struct AttachmentStore: Sendable {
    /// The directory holding the blobs.
    public let directory: URL
    private var incoming: URL { directory.appendingPathComponent("incoming", isDirectory: true) }

    /// Blobs under `directory` (created if missing).
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("incoming", isDirectory: true),
            withIntermediateDirectories: true)
    }

    /// Whether `id` has the form of an attachment id (a lowercase UUID): anything else never reaches the file system.
    static func isValidId(_ id: String) -> Bool {
        id.count == 36 && UUID(uuidString: id) != nil && id == id.lowercased()
    }

    /// Where an upload of `id` is written until it completes.
    func incomingPath(_ id: String) -> String { incoming.appendingPathComponent(id).path }

    /// Where a complete blob lives.
    func path(_ id: String) -> String { directory.appendingPathComponent(id).path }

    /// Makes a fully written upload downloadable.
    func commit(_ id: String) throws {
        try FileManager.default.moveItem(atPath: incomingPath(id), toPath: path(id))
    }

    /// Drops a failed upload.
    func discard(_ id: String) {
        try? FileManager.default.removeItem(atPath: incomingPath(id))
    }

    /// Size and creation time (milliseconds since 1970) of a complete blob, if it exists.
    func info(_ id: String) -> (size: Int64, created: UInt64)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path(id)),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return (size, UInt64(max(0, modified.timeIntervalSince1970) * 1000))
    }

    /// Deletes blobs (and abandoned uploads) last written before `cutoff` (milliseconds since 1970); returns how many.
    @discardableResult
    public func deleteBlobs(olderThan cutoff: UInt64) -> Int {
        var deleted = 0
        for folder in [directory, incoming] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where Self.isValidId(name) {
                let file = folder.appendingPathComponent(name).path
                guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
                    UInt64(max(0, modified.timeIntervalSince1970) * 1000) < cutoff
                else { continue }
                if (try? FileManager.default.removeItem(atPath: file)) != nil { deleted += 1 }
            }
        }
        return deleted
    }
}
