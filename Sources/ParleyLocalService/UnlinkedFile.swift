import Foundation

/// A private file read through an open handle after it has left the disk: what a door hands one client (a decrypted
/// attachment) is gone from the file system whatever becomes of the answer.
public enum UnlinkedFile {
    /// Lets `fill` write `file`, opens it for reading and removes it; returns the open handle and the file's size.
    /// `file` is removed when `fill` or opening fails too.
    public static func open(_ file: URL, filledBy fill: (URL) async throws -> Void) async throws -> (reader: FileHandle, size: Int?) {
        defer { try? FileManager.default.removeItem(at: file) }
        try await fill(file)
        let reader = try FileHandle(forReadingFrom: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        return (reader, size)
    }
}
