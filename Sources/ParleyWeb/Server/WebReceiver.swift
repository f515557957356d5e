import ParleyKit

/// Keeps `parley web`'s account receiving while the page is served: ParleyClient's `listen` (the server socket, and the
/// queued sends it runs), started once the account is registered and started again if it ends; and whether the server
/// can be reached, for the page's banner.
actor WebReceiver {
    let client: ParleyClient
    private var listening: Task<Void, Never>?
    private var watching: Task<Void, Never>?
    /// Whether listen's socket is up (`nil` before it first says).
    private(set) var online: Bool?

    init(client: ParleyClient) { self.client = client }

    /// Starts receiving when the account is registered (the page registers it otherwise, then calls this again).
    func start() {
        guard listening == nil, (try? client.credentials()) != nil else { return }
        let events = client.events()
        watching = Task { [weak self] in
            for await event in events {
                if case .connection(let up) = event { await self?.set(online: up) }
            }
        }
        listening = Task { [client] in
            while !Task.isCancelled {
                try? await client.listen()
                // listen ends only on a failure it cannot retry: try again a little later.
                try? await Task.sleep(for: .seconds(5))
            }
        }
    }

    private func set(online up: Bool) { online = up }

    /// Stops receiving.
    func stop() {
        listening?.cancel()
        watching?.cancel()
    }
}
