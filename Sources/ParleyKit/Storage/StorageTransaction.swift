internal import GRDB

/// An open transaction of the client database, as the pipelines hold it inside ``ParleyDatabase/read(_:)`` and
/// ``ParleyDatabase/write(_:)``: they hand it to Storage's table owners (``MessagesTable``, ``JobQueue``…) and never run
/// SQL on it themselves. Only files in Storage/ import GRDB, and the package's `MemberImportVisibility` setting keeps
/// GRDB's members out of reach everywhere else, so the wall is the compiler's.
typealias StorageTransaction = GRDB.Database
