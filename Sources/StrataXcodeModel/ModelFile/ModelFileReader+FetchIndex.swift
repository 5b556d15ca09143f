import Strata

extension ModelFileReader {
    /// The fetch index described by a `<fetchIndex name="…">` element and its
    /// `<fetchIndexElement property="…" type="…" order="…"/>` children, or `nil` when the index
    /// is skipped.
    ///
    /// `type` is `Binary` or an R-tree token (`RTree`, `R-Tree`, in any case); `order` is
    /// `ascending` (the default) or `descending`. An index with an *expression* element
    /// (`expression="…"` instead of `property="…"`) is skipped and logged: Strata indexes only
    /// properties, and an index changes neither the stored data nor the version hash.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for a missing name, an unknown type or order.
    mutating func fetchIndex(_ element: SourceElement, in context: String) throws(ModelError)
        -> FetchIndexDescription?
    {
        let name = try required("name", of: element, in: context)
        ignoreAttributes(of: element, except: ["name"])
        var elements: [FetchIndexDescription.Element] = []
        var hasExpression = false
        for child in element.children {
            guard child.name == "fetchIndexElement" else {
                ignore(child, inside: element.name)
                continue
            }
            guard let property = child.attribute("property") else {
                guard child.attribute("expression") != nil else {
                    throw malformed(child, in: context, "has neither a property nor an expression.")
                }
                hasExpression = true
                continue
            }
            ignoreAttributes(of: child, except: ["property", "type", "order"])
            elements.append(
                FetchIndexDescription.Element(
                    propertyName: property, kind: try indexKind(of: child, in: context),
                    isAscending: try isAscending(child, in: context)))
        }
        if hasExpression {
            ignored.note("<fetchIndex> with an expression element (index skipped)", line: element.line)
            return nil
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    private func indexKind(of element: SourceElement, in context: String) throws(ModelError)
        -> FetchIndexDescription.Element.Kind
    {
        let text = try required("type", of: element, in: context)
        switch text.lowercased().replacingOccurrences(of: "-", with: "") {
        case "binary": return .binary
        case "rtree": return .rTree
        default: throw malformed(element, in: context, "has type=\"\(text)\"; expected Binary or RTree.")
        }
    }

    private func isAscending(_ element: SourceElement, in context: String) throws(ModelError) -> Bool {
        switch element.attribute("order") {
        case nil, "ascending": return true
        case "descending": return false
        case let other?:
            throw malformed(element, in: context, "has order=\"\(other)\"; expected ascending or descending.")
        }
    }
}
