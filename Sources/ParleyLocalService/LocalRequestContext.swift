import Hummingbird
import NIOCore

/// The request context of the local HTTP doors (`parley daemon --http`, `parley rest-api`): Hummingbird's, with the
/// connection's channel, so a long response whose client stopped reading can be closed (a pending write ends only when
/// its connection does).
public struct LocalRequestContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
