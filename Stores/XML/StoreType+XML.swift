import Foundation
import Strata

extension StoreType {
    /// Core Data's XML store format: one human-readable file, read and written whole. Names in
    /// the file are matched against the model each file records, which is enough for every
    /// store Strata writes. A file is recognised by its root element, `<database>`.
    ///
    /// ```swift
    /// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.xml])
    /// let store = try coordinator.addStore(.xml(at: url))
    /// ```
    public static let xml = xml(model: nil)

    /// XML stores whose names are matched against `model`: use it to open stores Core Data
    /// wrote, which do not record their model. A `nil` model behaves as ``xml``.
    public static func xml(model: ManagedObjectModel?) -> StoreType {
        StoreType.atomic(
            name: XMLStore.typeName, variant: model.map(ObjectIdentifier.init),
            recognize: { rootElementName(of: $0) == "database" },
            describeFormat: { url in
                let version = try XMLStore.formatVersion(ofStoreAt: url)
                let hex = String(version, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
                return "Core Data's XML store version \(version) (0x\(padded))"
            },
            makeStore: { url in
                guard let url else {
                    throw StoreError(code: .unsupported, message: "An XML store needs a file URL.")
                }
                return XMLStore(fileURL: url, model: model)
            })
    }

    /// The name of the first element of an XML document's prefix, skipping a byte order mark,
    /// white space, the declaration, processing instructions, comments and the document type.
    private static func rootElementName(of prefix: [UInt8]) -> String? {
        var rest = Substring(String(decoding: prefix, as: UTF8.self))
        if rest.hasPrefix("\u{FEFF}") { rest.removeFirst() }
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard rest.hasPrefix("<") else { return nil }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!") {
                let terminator = rest.hasPrefix("<!--") ? "-->" : ">"
                guard let end = rest.range(of: terminator) else { return nil }
                rest = rest[end.upperBound...]
                continue
            }
            let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.isEmpty ? nil : String(name)
        }
    }
}

extension PersistentStoreDescription {
    /// A description of an XML store at `url` holding `configuration`; `model`, when given,
    /// is what names in a file Core Data wrote are matched against (``Strata/StoreType/xml(model:)``).
    public static func xml(
        at url: URL, configuration: String? = nil, model: ManagedObjectModel? = nil
    ) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .xml(model: model), url: url, configuration: configuration)
    }
}
