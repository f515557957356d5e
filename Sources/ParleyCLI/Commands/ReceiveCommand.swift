import ArgumentParser
import Foundation
import ParleyKit

struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "receive", abstract: "Fetch and store pending messages, once.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        // Receipts, and everything queued, go too (the server answered: it may be back); keys are looked after.
        let envelopes = try await AccountContext.with(options) { client in
            try client.claimReceiving()
            return try await client.receive(attempt: .everything).envelopes
        }
        let outcomes = envelopes.map(\.outcome)
        // Acts held until their message came, applied now that it has (they count as applied in the JSON).
        let released = envelopes.map(\.released.count).reduce(0, +)
        let stored = outcomes.filter { if case .stored = $0 { return true } else { return false } }.count
        let failed = outcomes.filter { if case .undecryptable = $0 { return true } else { return false } }.count
        let applied = outcomes.filter {
            switch $0 {
            case .applied, .acted: return true
            default: return false
            }
        }.count
        let rejected = outcomes.filter { if case .rejected = $0 { return true } else { return false } }.count
        let held = outcomes.filter { $0 == .held }.count
        struct Received: Encodable {
            let received: Int
            let stored: Int
            let applied: Int
            let held: Int
            let rejected: Int
            let undecryptable: Int
        }
        Output(json: options.json).emit(
            Received(
                received: envelopes.count, stored: stored, applied: applied + released, held: held, rejected: rejected,
                undecryptable: failed),
            text: "\(stored) new message(s)" + (applied > 0 ? ", \(applied) update(s) (receipts, reactions, edits, deletes, keys)" : "")
                + (held > 0 ? ", \(held) held until the message they concern arrives" : "")
                + (released > 0 ? ", \(released) applied now that their message came" : "")
                + (rejected > 0 ? ", \(rejected) refused (not allowed by their sender)" : "")
                + (failed > 0 ? ", \(failed) could not be decrypted" : ""))
    }
}
