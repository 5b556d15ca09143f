import Strata

extension ModelFileReader {
    /// The property-name lists of a `<uniquenessConstraints>` element: one list per
    /// `<uniquenessConstraint>`, one name per `<constraint value="…"/>`.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when a constraint lacks its value.
    mutating func uniquenessConstraints(_ element: SourceElement, in context: String) throws(ModelError)
        -> [[String]]
    {
        ignoreAttributes(of: element, except: [])
        var constraints: [[String]] = []
        for child in element.children {
            guard child.name == "uniquenessConstraint" else {
                ignore(child, inside: element.name)
                continue
            }
            ignoreAttributes(of: child, except: [])
            var names: [String] = []
            for constraint in child.children {
                guard constraint.name == "constraint" else {
                    ignore(constraint, inside: child.name)
                    continue
                }
                ignoreAttributes(of: constraint, except: ["value"])
                names.append(try required("value", of: constraint, in: context))
            }
            constraints.append(names)
        }
        return constraints
    }
}
