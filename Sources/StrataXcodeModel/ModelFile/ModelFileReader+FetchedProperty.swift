import Strata

extension ModelFileReader {
    /// The fetched property described by a `<fetchedProperty>` element and the
    /// `<fetchRequest entity="…" predicateString="…">` inside it.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when the name, the fetch request or its
    ///   entity is missing.
    mutating func fetchedProperty(_ element: SourceElement, in context: String) throws(ModelError)
        -> FetchedPropertyDescription
    {
        let name = try required("name", of: element, in: context)
        ignoreAttributes(of: element, except: ["name"])
        guard let request = element.children.first(where: { $0.name == "fetchRequest" }) else {
            throw malformed(element, in: context, "lacks its <fetchRequest> element.")
        }
        ignoreAttributes(of: request, except: ["entity", "predicateString"])
        var property = FetchedPropertyDescription(
            name: name, destinationEntityName: try required("entity", of: request, in: context),
            predicateFormat: request.attribute("predicateString"))
        property.userInfo = try propertyUserInfo(of: element, handled: ["fetchRequest"], in: context)
        return property
    }
}
