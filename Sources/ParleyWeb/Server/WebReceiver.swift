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

    /// Stops receiving, and waiting for a link.
    func stop() {
        listening?.cancel()
        watching?.cancel()
        linking?.cancel()
    }

    // MARK: Linking this machine to an account

    private var linking: Task<Void, Never>?
    /// Whether this machine waits for an account's primary device to approve its link code.
    private(set) var awaitingLink = false
    /// Why the last link did not complete.
    private(set) var linkFailure: String?
    /// The link code waiting for approval.
    private(set) var linkCode: String?

    /// Makes a link code for an account's primary device to approve (`parley devices add CODE`, or the page's Devices),
    /// and waits for the approval (10 minutes) in the background; once linked, receiving starts. A new code replaces
    /// one still waiting.
    func startLink() -> String {
        let invitation = LinkInvitation.create()
        linking?.cancel()
        awaitingLink = true
        linkFailure = nil
        linkCode = invitation.code
        linking = Task { [client] in
            do {
                _ = try await client.completeLink(invitation, deviceName: "parley web", timeout: .seconds(600))
                self.linkEnded(nil)
                self.start()
            } catch {
                if !Task.isCancelled { self.linkEnded("\(error)") }
            }
        }
        return invitation.code
    }

    private func linkEnded(_ failure: String?) {
        awaitingLink = false
        linkCode = nil
        linkFailure = failure
    }
}
