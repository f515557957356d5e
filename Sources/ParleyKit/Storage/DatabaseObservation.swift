internal import GRDB

/// A running observation of some tables (``ParleyDatabase/observe(tables:onChange:)``): it reports changes until it
/// is cancelled or released.
final class DatabaseObservation: Sendable {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) {
        self.cancellable = cancellable
    }

    /// Stops the observation.
    func cancel() { cancellable.cancel() }
}
