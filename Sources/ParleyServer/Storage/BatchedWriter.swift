import Synchronization

/// One writer for many concurrent callers, the heart of group commit: each caller hands over an item and waits; the
/// writer commits everything waiting (up to ``maximumWeight``) with one call of `commit`, and answers each caller only
/// after that call returned. Batches form by themselves: while one commit runs, the next items queue, so an idle
/// server adds no wait and a busy one commits many items at once. If a batch fails, its items are committed one by one,
/// so one bad item cannot fail the others. Behind ``EnvelopeGroupCommit`` (sends) and ``AcknowledgementGroupCommit``.
final class BatchedWriter<Item: Sendable, Answer: Sendable>: Sendable {
    /// Largest batch, in the items' weights (an item heavier than this goes alone).
    let maximumWeight: Int
    private let weight: @Sendable (Item) -> Int
    private let commit: @Sendable ([Item]) async throws -> [Answer]
    private let answered: @Sendable (Item) -> Void

    private struct Waiting: Sendable {
        let item: Item
        let done: CheckedContinuation<Answer, any Error>
    }

    private struct State: Sendable {
        var queue: [Waiting] = []
        var writing = false
    }

    private let state = Mutex(State())

    /// A writer that commits with `commit` (one answer per item, in order), batches up to `maximumWeight` by
    /// `weight`, and calls `answered` after each item's caller was answered.
    init(
        maximumWeight: Int, weight: @escaping @Sendable (Item) -> Int,
        commit: @escaping @Sendable ([Item]) async throws -> [Answer], answered: @escaping @Sendable (Item) -> Void = { _ in }
    ) {
        self.maximumWeight = max(1, maximumWeight)
        self.weight = weight
        self.commit = commit
        self.answered = answered
    }

    /// Commits `item` in the next batch; returns its answer once that batch committed, or throws the error of its own
    /// commit.
    func submit(_ item: Item) async throws -> Answer {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Answer, any Error>) in
            let startWriter = state.withLock { state in
                state.queue.append(Waiting(item: item, done: done))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if startWriter { Task { await self.write() } }
        }
    }

    /// Commits `item` in a call of its own, now, beside any batch (group commit turned off).
    func commitAlone(_ item: Item) async throws -> Answer {
        try await checkedCommit([item])[0]
    }

    /// The writer: takes what is waiting, commits it, answers, and goes on until nothing waits.
    private func write() async {
        while let batch = nextBatch() {
            do {
                let answers = try await checkedCommit(batch.map(\.item))
                for (waiting, answer) in zip(batch, answers) { finish(waiting, .success(answer)) }
            } catch {
                guard batch.count > 1 else {
                    finish(batch[0], .failure(error))
                    continue
                }
                for waiting in batch {
                    do {
                        finish(waiting, .success(try await checkedCommit([waiting.item])[0]))
                    } catch {
                        finish(waiting, .failure(error))
                    }
                }
            }
        }
    }

    /// `commit`, failing when it answered another number of items than it was given (no caller is left waiting).
    private func checkedCommit(_ items: [Item]) async throws -> [Answer] {
        let answers = try await commit(items)
        guard answers.count == items.count else { throw BatchAnswerCountMismatch(expected: items.count, received: answers.count) }
        return answers
    }

    private func finish(_ waiting: Waiting, _ result: Result<Answer, any Error>) {
        waiting.done.resume(with: result)
        answered(waiting.item)
    }

    /// Up to ``maximumWeight`` of waiting items (at least one), or `nil` (and the writer stops) when none wait.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.writing = false
                return nil
            }
            var total = 0
            var taken = 0
            while taken < state.queue.count, taken == 0 || total + weight(state.queue[taken].item) <= maximumWeight {
                total += weight(state.queue[taken].item)
                taken += 1
            }
            defer { state.queue.removeFirst(taken) }
            return Array(state.queue.prefix(taken))
        }
    }
}
