import Foundation
import Hummingbird
import Strata

/// The service's endpoints, each run in a background context of the container:
///
/// - `GET /health`: 200 once the stores are loaded, 503 before;
/// - `POST /items`: creates an item from a JSON object (201, the item);
/// - `GET /items?where=PREDICATE&sort=key,-key&limit=N`: the items matching a Core Data
///   predicate, sorted and limited;
/// - `GET /items/:sku`, `PATCH /items/:sku` (a JSON object of the attributes to change) and
///   `DELETE /items/:sku` (204).
///
/// A bad request — malformed JSON, an unknown key, a value of the wrong type, a predicate that
/// does not parse — is a 400 with the message of the typed error; an item that fails
/// validation is a 422, a SKU already taken a 409, an unknown SKU a 404. Nothing is saved
/// then.
struct InventoryRoutes: Sendable {
    let container: PersistentContainer

    private var item: EntityDescription {
        get throws {
            guard let entity = container.model.entity(named: InventoryModel.item) else {
                throw HTTPError(.internalServerError, message: "The model has no entity '\(InventoryModel.item)'.")
            }
            return entity
        }
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("health") { _, _ -> HTTPResponse.Status in
            container.coordinator.stores.isEmpty ? .serviceUnavailable : .ok
        }
        router.post("items") { request, context -> EditedResponse<ItemRecord> in
            let fields = try ItemFields(try await request.body.collect(upTo: context.maxUploadSize), for: try item)
            let record = try await perform { context in
                let object = try context.insertNewObject(forEntityName: InventoryModel.item)
                try fields.apply(to: object)
                try context.save()
                return try ItemRecord(object)
            }
            return EditedResponse(status: .created, response: record)
        }
        router.get("items") { request, _ -> [ItemRecord] in
            let fetch = try ItemQuery(request.uri.queryParameters, for: try item).request
            return try await perform { context in try context.fetch(fetch).map(ItemRecord.init) }
        }
        router.get("items/:sku") { _, context -> ItemRecord in
            let sku = try context.parameters.require("sku")
            return try await perform { context in try ItemRecord(try Self.item(sku, in: context)) }
        }
        router.patch("items/:sku") { request, context -> ItemRecord in
            let sku = try context.parameters.require("sku")
            let fields = try ItemFields(try await request.body.collect(upTo: context.maxUploadSize), for: try item)
            return try await perform { context in
                let object = try Self.item(sku, in: context)
                try fields.apply(to: object)
                try context.save()
                return try ItemRecord(object)
            }
        }
        router.delete("items/:sku") { _, context -> HTTPResponse.Status in
            let sku = try context.parameters.require("sku")
            try await perform { context in
                try context.delete(try Self.item(sku, in: context))
                try context.save()
            }
            return .noContent
        }
    }

    /// Runs `body` in a new background context, turning Strata's typed errors into HTTP errors
    /// that carry their message.
    private func perform<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T
    {
        guard !container.coordinator.stores.isEmpty else {
            throw HTTPError(.serviceUnavailable, message: "The stores are not loaded yet.")
        }
        do {
            return try await container.performBackgroundTask(body)
        } catch let error as HTTPError {
            throw error
        } catch let error as ContextError {
            throw HTTPError(Self.status(of: error), message: error.message)
        } catch let error as FetchPredicateError {
            throw HTTPError(.badRequest, message: error.message)
        }
    }

    /// The status a context's error answers with.
    private static func status(of error: ContextError) -> HTTPResponse.Status {
        switch error.code {
        case .validation: .unprocessableContent
        case .constraintConflict, .mergeConflict: .conflict
        case .unknownKey, .wrongType, .invalidRequest: .badRequest
        default: .internalServerError
        }
    }

    /// The item whose SKU is `sku`.
    private static func item(_ sku: String, in context: ManagedObjectContext) throws -> ManagedObject {
        var request = FetchRequest<ManagedObject>(entityName: InventoryModel.item)
        request.predicate = try FetchPredicate(format: "sku == %@", sku)
        request.fetchLimit = 1
        guard let item = try context.fetch(request).first else {
            throw HTTPError(.notFound, message: "No item has the SKU '\(sku)'.")
        }
        return item
    }
}
