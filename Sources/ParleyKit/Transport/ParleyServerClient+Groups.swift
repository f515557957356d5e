import Foundation
import NIOHTTP1
import ParleyAPI

/// The routes server-stored groups start from: the server's zkgroup public params and the account's daily credentials.
extension ParleyServerClient {
    /// The server's zkgroup public params; no credentials.
    public func zkGroupPublicParams() async throws -> ZKGroupPublicParamsResponse {
        try await call(.GET, APIRoutes.zkGroupPublicParams, as: nil, expecting: [200])
    }

    /// `device`'s account's group auth credentials for the days from `start` through `end` (seconds since 1970, whole
    /// days); the server issues those between today and a week ahead.
    public func groupAuthCredentials(from start: UInt64, through end: UInt64, as device: DeviceCredentials) async throws
        -> GroupAuthCredentialsResponse
    {
        try await call(
            .GET, APIRoutes.groupAuthCredentials + "?redemptionStartSeconds=\(start)&redemptionEndSeconds=\(end)", as: device,
            expecting: [200])
    }
}
