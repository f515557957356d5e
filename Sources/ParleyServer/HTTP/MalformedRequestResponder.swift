import Foundation
import NIOCore
import NIOHTTP1
import ParleyAPI

/// Answers bytes the HTTP decoder cannot parse — a request line that is not one (`HELLO`, HTTP/2's preface on the
/// HTTP/1.1 port), a negative, over-long or repeated `Content-Length`, `Content-Length` with `Transfer-Encoding`, a NUL
/// in the target, a malformed header name — with a `400` JSON error (`bad_request`, naming what was wrong) and
/// `Connection: close`, then closes the connection. Without it the decoder's error reached no one: the client got no
/// answer and the connection stayed open until the read timeout. Sits right after the decoder. When a request before
/// the bad bytes is still being answered, the 400 follows its response (pipelined answers keep their order). An error
/// inside a request's body — a bad chunk, the connection ending mid-body — is that request's: it is passed on, so
/// Hummingbird fails the body and the handler refuses the upload.
final class MalformedRequestResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests whose head arrived and whose response has not ended yet.
    private var unanswered = 0
    /// Whether a request's head arrived and its end has not: its body is still coming.
    private var bodyArriving = false
    /// A parse error that came while a request was still being answered: answered once that response ends.
    private var pendingError: HTTPParserError?
    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            bodyArriving = true
        case .end:
            bodyArriving = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ended = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        guard ended else { return }
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, let error = pendingError {
            pendingError = nil
            answer(error, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // An error inside a request's body (a bad chunk, the client gone mid-upload) belongs to that request: passed on,
        // Hummingbird fails its body, so a cut-off upload is refused rather than stored as if it were whole.
        guard let parserError = error as? HTTPParserError, !bodyArriving, parserError != .invalidEOFState else {
            context.fireErrorCaught(error)
            return
        }
        guard !failed else { return }
        failed = true
        // A request before the bad bytes is answered first (pipelining keeps the order), then this.
        if unanswered > 0 {
            pendingError = parserError
        } else {
            answer(parserError, context: context)
        }
    }

    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        let body =
            (try? JSONEncoder().encode(APIErrorBody(code: "bad_request", message: "malformed HTTP request: \(Self.describe(error))")))
            ?? Data()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// What was wrong, in words a client's developer can act on.
    static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidMethod: "not an HTTP/1.1 request line (an unknown method, or another protocol's preface)"
        case .invalidVersion: "not an HTTP/1.x version"
        case .invalidURL: "the request target has characters a URL may not hold"
        case .invalidContentLength, .unexpectedContentLength:
            "Content-Length is not one non-negative number that fits in 64 bits, or comes with Transfer-Encoding"
        case .invalidHeaderToken: "a header name or value holds a character it may not"
        case .invalidChunkSize: "a chunk size is not a hexadecimal number"
        case .headerOverflow: "the request head is too long"
        default: "\(error)"
        }
    }
}
