import Foundation
import Hummingbird
import Strata

/// An item as the service's JSON shows it.
public struct ItemRecord: ResponseCodable, Sendable, Equatable {
    /// The object's URI (`x-strata://…`), which names it across the service's life.
    public var id: String
    public var sku: String
    public var name: String
    public var quantity: Int64
    public var price: Double?

    /// The record of a saved `item`.
    init(_ item: ManagedObject) throws {
        id = item.objectID.uriRepresentation.absoluteString
        guard case .string(let sku) = try item.value(forKey: "sku"),
            case .string(let name) = try item.value(forKey: "name"),
            case .integer64(let quantity) = try item.value(forKey: "quantity")
        else { throw HTTPError(.internalServerError, message: "Item \(id) is missing a required value.") }
        self.sku = sku
        self.name = name
        self.quantity = quantity
        if case .double(let price) = try item.value(forKey: "price") { self.price = price }
    }
}
