import Foundation

/// The first errors of an import job, kept as a JSON array of strings (at most ``limit``).
enum ImportErrors {
    /// Errors kept per job.
    static let limit = 20

    /// `stored` (a JSON array) with `new` appended, cut to ``limit``.
    static func appending(_ new: [String], to stored: String) -> String {
        var errors = decode(stored)
        guard errors.count < limit, !new.isEmpty else { return stored }
        errors += new.prefix(limit - errors.count)
        return String(decoding: (try? JSONEncoder().encode(errors)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The errors in `stored`.
    static func decode(_ stored: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(stored.utf8))) ?? []
    }
}
