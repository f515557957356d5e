import Foundation

/// A least-recently-used cache with a lifetime per entry: O(1) lookups, insertions and evictions (a dictionary
/// over a doubly linked list kept in arrays). Not thread-safe on its own; its owner locks.
struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var expires: ContinuousClock.Instant
        var previous: Int?
        var next: Int?
    }

    let capacity: Int
    private var nodes: [Node] = []
    private var index: [Key: Int] = [:]
    private var head: Int?  // most recently used
    private var tail: Int?  // least recently used

    /// A cache of at most `capacity` entries (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Entries held now (expired ones included until touched or evicted).
    var count: Int { index.count }

    /// The value for `key` if present and not expired at `now`; marks it most recently used.
    mutating func value(for key: Key, now: ContinuousClock.Instant) -> Value? {
        guard let slot = index[key] else { return nil }
        guard nodes[slot].expires > now else {
            remove(slot)
            return nil
        }
        moveToFront(slot)
        return nodes[slot].value
    }

    /// Stores `value` for `key` until `expires`, evicting the least recently used entry when full.
    mutating func set(_ value: Value, for key: Key, expires: ContinuousClock.Instant) {
        if let slot = index[key] {
            nodes[slot].value = value
            nodes[slot].expires = expires
            moveToFront(slot)
            return
        }
        if index.count >= capacity, let oldest = tail { remove(oldest) }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, expires: expires, previous: nil, next: nil))
        index[key] = slot
        link(slot)
    }

    private mutating func link(_ slot: Int) {
        nodes[slot].previous = nil
        nodes[slot].next = head
        if let head { nodes[head].previous = slot }
        head = slot
        if tail == nil { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if let previous { nodes[previous].next = next } else { head = next }
        if let next { nodes[next].previous = previous } else { tail = previous }
    }

    private mutating func moveToFront(_ slot: Int) {
        guard head != slot else { return }
        unlink(slot)
        link(slot)
    }

    /// Removes the node at `slot`, moving the last node into its place so the arrays stay dense.
    private mutating func remove(_ slot: Int) {
        unlink(slot)
        index.removeValue(forKey: nodes[slot].key)
        let last = nodes.count - 1
        if slot != last {
            let moved = nodes[last]
            nodes[slot] = moved
            index[moved.key] = slot
            if let previous = moved.previous { nodes[previous].next = slot } else { head = slot }
            if let next = moved.next { nodes[next].previous = slot } else { tail = slot }
        }
        nodes.removeLast()
    }
}
