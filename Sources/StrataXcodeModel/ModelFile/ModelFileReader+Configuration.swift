import Strata

extension ModelFileReader {
    /// The name and member entity names of a `<configuration name="…">` element with its
    /// `<memberEntity name="…"/>` children.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when a name is missing.
    mutating func configuration(_ element: SourceElement) throws(ModelError) -> (name: String, members: [String]) {
        let name = try required("name", of: element)
        ignoreAttributes(of: element, except: ["name"])
        var members: [String] = []
        for child in element.children {
            guard child.name == "memberEntity" else {
                ignore(child, inside: element.name)
                continue
            }
            ignoreAttributes(of: child, except: ["name"])
            members.append(try required("name", of: child, in: "configuration '\(name)'"))
        }
        return (name, members)
    }
}
