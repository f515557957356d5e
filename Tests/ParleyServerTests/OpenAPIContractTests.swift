import Foundation
import Hummingbird
import ParleyServer
import Testing

/// `docs/openapi.json` is the REST contract: it must list exactly the routes the server serves, and every
/// reference in it must resolve.
@Suite struct OpenAPIContractTests {
    static var document: [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// `METHOD /path/{param}` for every operation in the document.
    static var documentedRoutes: Set<String> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return Set(
            paths.flatMap { path, item in
                item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
            })
    }

    /// `METHOD /path/{param}` for every route of the router (`:param` written as `{param}`).
    static func servedRoutes() throws -> Set<String> {
        let harness = try ServerHarness()
        let router = ParleyServerApplication.makeRouter(harness.dependencies)
        return Set(
            router.routes.map { route in
                let path = "\(route.path)".split(separator: "/").map { component in
                    component.hasPrefix(":") ? "{\(component.dropFirst())}" : String(component)
                }.joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
    }

    @Test func theDocumentListsExactlyTheServedRoutes() throws {
        #expect(Self.document["openapi"] as? String == "3.1.0")
        let served = try Self.servedRoutes()
        let documented = Self.documentedRoutes
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        #expect(served.count >= 16)
    }

    @Test func everyOperationHasAnIdAndResponsesAndEveryReferenceResolves() throws {
        let paths = Self.document["paths"] as? [String: [String: Any]] ?? [:]
        var operationIds: [String] = []
        for (path, item) in paths {
            for (method, value) in item where Self.methods.contains(method) {
                let operation = try #require(value as? [String: Any], "\(method) \(path)")
                operationIds.append(try #require(operation["operationId"] as? String, "\(method) \(path) has no operationId"))
                #expect((operation["responses"] as? [String: Any])?.isEmpty == false, "\(method) \(path) has no responses")
            }
        }
        #expect(Set(operationIds).count == operationIds.count, "operation ids repeat")
        var references: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(Self.document)
        #expect(!references.isEmpty)
        for reference in references {
            #expect(reference.hasPrefix("#/"), "external reference \(reference)")
            var node: Any? = Self.document
            for key in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
            #expect(node != nil, "unresolved reference \(reference)")
        }
    }
}
