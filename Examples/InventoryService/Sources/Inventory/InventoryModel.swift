import Strata

/// The service's model: items of stock, each known by its SKU.
public enum InventoryModel {
    /// The entity every endpoint works on.
    public static let item = "Item"

    /// A new model: `Item` with a unique, required `sku`, a required `name`, a `quantity` that
    /// cannot go below zero and an optional `price`.
    public static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription(item) {
                AttributeDescription("sku", .string, optional: false, min: 1, max: 32)
                AttributeDescription("name", .string, optional: false, min: 1)
                AttributeDescription("quantity", .integer64, optional: false, default: 0, min: 0)
                AttributeDescription("price", .double)
                UniquenessConstraint("sku")
            }
        }
    }
}
