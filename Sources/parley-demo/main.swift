import Foundation
import ParleyProtocol

// The protocol walkthrough of `make demo`: two parties set up a PQXDH session, talk with
// messages delivered out of order, compare safety numbers, and send one group message.
do {
    try Walkthrough().run()
} catch {
    FileHandle.standardError.write(Data("parley-demo: \(error)\n".utf8))
    exit(1)
}
