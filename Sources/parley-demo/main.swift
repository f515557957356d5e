import Foundation
import ParleyProtocol

// `make demo`: the end-to-end demo (server + clients on loopback). `--protocol` runs the protocol-only
// walkthrough instead: a PQXDH session, out-of-order messages, safety numbers and a group message.
do {
    if CommandLine.arguments.contains("--protocol") {
        try Walkthrough().run()
    } else {
        try await ClientDemo().run()
    }
} catch {
    FileHandle.standardError.write(Data("parley-demo: \(error)\n".utf8))
    exit(1)
}
