import ParleyAPI

extension ContentDetectionService {
    /// Checks the configuration and that the server answers hash lookups with this device's credentials: a prefix
    /// lookup and a full-hash lookup of a random hash (which no bank should hold), then one check through the service
    /// itself (cache, circuit breaker). Never throws: a failed step is reported as one.
    public func verify() async -> [ContentDetectionCheck] {
        var steps: [ContentDetectionCheck] = []
        steps.append(
            ContentDetectionCheck(
                check: "configuration", ok: true,
                detail: configuration.enabled
                    ? "enabled, \(configuration.mode.rawValue) lookups, \(configuration.maxAttempts) attempts, breaker at \(configuration.failureThreshold) failures for \(configuration.cooldown), cache \(configuration.cacheCapacity) for \(configuration.cacheLifetime)"
                    : "disabled (PARLEY_DCD=off): nothing is checked"))
        steps.append(ContentDetectionCheck(check: "server", ok: true, detail: api.baseURL))
        do {
            let device = try credentials()
            steps.append(ContentDetectionCheck(check: "account", ok: true, detail: "device \(device.deviceId) of \(device.accountId)"))
            let probe = ContentHashFormat.hex((0..<32).map { _ in UInt8.random(in: 0...255) })
            let started = ContinuousClock.now
            let answer = try await api.hashPrefix(String(probe.prefix(5)), as: device)
            steps.append(
                ContentDetectionCheck(
                    check: "prefix lookup", ok: true,
                    detail: "\(answer.suffixes.count) suffixes in \(ContinuousClock.now - started)"))
            let full = try await api.checkHash(probe, as: device)
            steps.append(ContentDetectionCheck(check: "full-hash lookup", ok: !full.found, detail: "random hash found: \(full.found)"))
        } catch {
            steps.append(ContentDetectionCheck(check: "lookups", ok: false, detail: "\(error)"))
        }
        let verdict = await contains(String(repeating: "0", count: 64))
        steps.append(
            ContentDetectionCheck(
                check: "service", ok: verdict.source != .failOpen || !configuration.enabled,
                detail: "answered from \(verdict.source.rawValue); circuit \(isCircuitOpen ? "open" : "closed")"))
        return steps
    }
}
