/// A batch's commit answered another number of items than it was given: the batch is treated as failed (and its items
/// committed one by one), so no caller waits for an answer that never comes.
struct BatchAnswerCountMismatch: Error, CustomStringConvertible {
    /// Items in the batch.
    let expected: Int
    /// Answers the commit returned.
    let received: Int

    var description: String { "a batch of \(expected) items was answered with \(received) answers" }
}
