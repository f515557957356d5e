import AsyncHTTPClient
import Foundation

/// Why a request never got an answer, in words a person can act on (never the transport library's own text).
/// Shared by ParleyKit's server client and the operator's (ParleyOperatorClient).
public enum TransportFailure {
    /// `error` from the HTTP client as a sentence naming `server`.
    public static func describe(_ error: any Error, server: String) -> String {
        let text = String(describing: error).lowercased()
        let reason: String
        if let failure = error as? HTTPClientError {
            switch failure {
            case .connectTimeout: reason = "no connection within 5 s (is it running, and is the address right?)"
            case .readTimeout, .deadlineExceeded: reason = "it did not answer in time"
            case .remoteConnectionClosed: reason = "it closed the connection"
            case .cancelled: reason = "the request was cancelled"
            case .tlsHandshakeTimeout: reason = "the TLS handshake timed out"
            default: reason = "the request failed (\(failure.shortDescription))"
            }
        } else if text.contains("connection refused") {
            reason = "the connection was refused (is it running?)"
        } else if text.contains("nodename nor servname") || text.contains("name or service not known") || text.contains("no address")
            || text.contains("unknown host")
        {
            reason = "its host name does not resolve"
        } else if text.contains("handshake") || text.contains("certificate") || text.contains("ssl") || text.contains("tls") {
            reason = "the TLS connection failed (a certificate the system does not trust?)"
        } else if text.contains("network is unreachable") || text.contains("no route to host") {
            reason = "this machine has no route to it (offline?)"
        } else {
            reason = "the connection failed"
        }
        return "\(server): \(reason)"
    }
}

extension HTTPClientError {
    /// The error's name without the library's wrapping.
    fileprivate var shortDescription: String {
        String(describing: self).replacingOccurrences(of: "HTTPClientError.", with: "")
    }
}
