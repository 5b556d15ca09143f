import Foundation
import Strata

extension StoreType {
    /// The name XML stores are registered under: `"XML"`.
    public static let xmlName = "XML"

    /// Core Data's XML store format (``XMLStore``): one human-readable file, read and written
    /// whole. Names in the file are matched against the model each file records, which is
    /// enough for every store Strata writes.
    ///
    /// ```swift
    /// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.xml])
    /// let store = try coordinator.addStore(type: StoreType.xmlName, at: url)
    /// ```
    public static let xml = xml(model: nil)

    /// XML stores whose names are matched against `model`: use it to open stores Core Data
    /// wrote, which do not record their model. A `nil` model behaves as ``xml``.
    public static func xml(model: ManagedObjectModel?) -> StoreType {
        .atomic(name: xmlName) { url in
            guard let url else {
                throw StoreError(code: .unsupported, message: "An XML store needs a file URL.")
            }
            return XMLStore(fileURL: url, model: model)
        }
    }
}
