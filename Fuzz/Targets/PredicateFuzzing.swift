import Foundation
import Strata

/// Parses the input as a predicate format, evaluates what parses against a small object
/// graph, and checks the property ``FetchPredicate/description`` documents: parsing the
/// description gives back an equal predicate.
enum PredicateFuzzing {
    /// An argument for each placeholder of `format`, of the kind it asks for (placeholders
    /// inside quotes are counted too, so such formats get too many and are refused).
    private static func arguments(for format: String) -> [any PredicateArgument] {
        var arguments: [any PredicateArgument] = []
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            let spelling = rest.prefix { $0 == "@" || ($0.isASCII && $0.isLetter) }
            switch spelling {
            case "@": arguments.append(AttributeValue.string("Ann"))
            case "K": arguments.append(AttributeValue.string("title"))
            case "d", "i", "ld", "lld", "u": arguments.append(3)
            case "f", "lf": arguments.append(2.5)
            default: break
            }
        }
        return arguments
    }

    /// A book with an author and two readers, made afresh for each input (records are not
    /// `Sendable`).
    private static func book() -> KeyValueRecord {
        let author = KeyValueRecord(
            identity: .string("a1"), ["name": .value(.string("Ann")), "age": .value(.integer64(41))])
        return KeyValueRecord(
            identity: .string("b1"),
            [
                "title": .value(.string("Dune")), "pages": .value(.integer64(412)), "price": .value(.double(9.5)),
                "published": .value(.date(Date(timeIntervalSinceReferenceDate: 0))), "author": .object(author),
                "readers": .objects([author, author]), "name": .value(.null),
            ])
    }

    static func run(_ input: Data) throws {
        let format = String(decoding: input, as: UTF8.self)
        let predicate = try FetchPredicate(format: format, arguments: arguments(for: format))
        _ = try? predicate.evaluate(with: book(), variables: ["x": .integer64(1)])
        let description = predicate.description
        let again: FetchPredicate
        do {
            again = try FetchPredicate(format: description)
        } catch {
            fatalError("'\(format)' parsed, but its description '\(description)' does not: \(error)")
        }
        guard again == predicate else {
            fatalError("'\(format)' parsed, but its description '\(description)' parses as '\(again)'")
        }
    }
}
