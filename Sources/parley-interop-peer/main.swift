import Foundation

// The interop peer of ../shared/interop/PROTOCOL.md: one JSON request per line on stdin,
// one JSON reply per line on stdout. Logs (none today) would go to stderr.
let peer = InteropPeer()
while let line = readLine(strippingNewline: true) {
    if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
    let (reply, quit) = peer.handle(line: line)
    FileHandle.standardOutput.write(reply + Data("\n".utf8))
    if quit { break }
}
