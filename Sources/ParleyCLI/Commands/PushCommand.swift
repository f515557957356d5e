import ArgumentParser
import Foundation
import ParleyKit

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Where the server wakes this device when messages wait: register, show or remove it.",
        subcommands: [Register.self, Status.self, Remove.self], defaultSubcommand: Status.self)

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register",
            abstract: "Register one push target: a Web Push (UnifiedPush, e.g. ntfy) endpoint, an APNs token or an FCM token.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "A Web Push endpoint URL (https), such as a UnifiedPush distributor's.") var webpush: String?
        @Option(help: "The subscription's P-256 public key (URL-safe base64); made here when omitted.") var p256dh: String?
        @Option(
            help:
                "The subscription's 16-byte auth secret (URL-safe base64; write --auth=VALUE when it begins with -); made here when omitted."
        ) var auth: String?
        @Option(help: "An APNs device token (hex), with --topic.") var apns: String?
        @Option(help: "The app's bundle id, for --apns.") var topic: String?
        @Flag(help: "The APNs token is from Apple's development environment.") var sandbox = false
        @Option(help: "An FCM registration token.") var fcm: String?

        func validate() throws {
            guard [webpush, apns, fcm].compactMap({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --webpush, --apns and --fcm")
            }
            guard (p256dh == nil) == (auth == nil) else { throw ValidationError("--p256dh and --auth go together") }
            if p256dh != nil, webpush == nil { throw ValidationError("--p256dh and --auth are for --webpush") }
            if apns != nil, topic == nil { throw ValidationError("--apns needs --topic (the app's bundle id)") }
            if apns == nil, topic != nil || sandbox { throw ValidationError("--topic and --sandbox are for --apns") }
        }

        func run() async throws {
            let target = try await AccountContext.with(options) { client -> PushTarget in
                if let webpush, p256dh == nil { return try await client.registerWebPush(endpoint: webpush) }
                let target: PushTarget
                if let webpush, let p256dh, let auth {
                    target = .webPush(endpoint: webpush, p256dh: p256dh, auth: auth)
                } else if let apns, let topic {
                    target = .apns(token: apns, topic: topic, sandbox: sandbox)
                } else {
                    target = .fcm(token: fcm ?? "")
                }
                try await client.registerPushTarget(target)
                return target
            }
            Output(json: options.json).emit(target, text: "registered: \(Self.describe(target))")
        }

        static func describe(_ target: PushTarget) -> String {
            switch target {
            case .webPush(let endpoint, _, _): return "Web Push to \(endpoint)"
            case .apns(let token, let topic, let sandbox):
                return "APNs token \(token.prefix(12))… for \(topic)\(sandbox ? " (sandbox)" : "")"
            case .fcm(let token): return "FCM token \(token.prefix(12))…"
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show this device's push target.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let status = try await AccountContext.with(options) { client in try await client.pushStatus() }
            var text = status.target.map { "target: \(Register.describe($0))" } ?? "target: none"
            if status.target != nil, !status.keysRegistered { text += "\nnot woken until this device's keys are on the server" }
            text += "\nserver pushes through: \(status.providers.joined(separator: ", "))"
            Output(json: options.json).emit(status, text: text)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop waking this device.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let removed = try await AccountContext.with(options) { client in try await client.removePushTarget() }
            struct Removed: Encodable { let removed: Bool }
            Output(json: options.json).emit(Removed(removed: removed), text: removed ? "removed" : "no push target was registered")
        }
    }
}
