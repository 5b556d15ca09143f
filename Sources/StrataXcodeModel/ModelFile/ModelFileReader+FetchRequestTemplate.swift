import Strata

extension ModelFileReader {
    /// The fetch request template described by a model-level
    /// `<fetchRequest name="…" entity="…" predicateString="…">` element.
    ///
    /// Options such as `fetchLimit` or `resultType` are not part of a
    /// `FetchRequestTemplate` and are ignored.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when the name or entity is missing.
    mutating func fetchRequestTemplate(_ element: SourceElement) throws(ModelError) -> FetchRequestTemplate {
        let template = FetchRequestTemplate(
            name: try required("name", of: element), entityName: try required("entity", of: element),
            predicateFormat: element.attribute("predicateString"))
        ignoreAttributes(of: element, except: ["name", "entity", "predicateString"])
        for child in element.children { ignore(child, inside: element.name) }
        return template
    }
}
