@testable import ParleyKit

/// Whether `body` throws a ``ParleyError`` of the area `matches` picks, whatever its reason: the grouped cases'
/// counterpart of `#expect(throws: SomeError.self)`.
func throwsParleyError(_ matches: (ParleyError) -> Bool, _ body: () throws -> Any) -> Bool {
    do {
        _ = try body()
        return false
    } catch let error as ParleyError {
        return matches(error)
    } catch {
        return false
    }
}
