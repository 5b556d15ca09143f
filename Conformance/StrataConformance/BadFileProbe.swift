import Foundation
import Strata

/// Opens a file that may be damaged, foreign or unreadable, the way the bad-file checks (N) do:
/// its metadata is read without opening it, then it is opened in a new coordinator and every
/// object of every entity is read with its to-many relationships, since some stores find damage
/// only when they read a page.
struct BadFileProbe {
    /// How one attempt ended.
    enum Outcome: Equatable {
        /// Reading the metadata gave metadata (or `nil`), or opening and reading everything
        /// worked; `objects` counts the objects read.
        case succeeded(objects: Int)
        /// A `StoreError` was thrown.
        case storeError(code: String, message: String)
        /// Something else was thrown.
        case otherError(String)

        /// The outcome as one line of the worker's output.
        var line: String {
            switch self {
            case .succeeded(let objects): "succeeded \(objects)"
            case .storeError(let code, let message): "storeError \(code) \(Self.oneLine(message))"
            case .otherError(let description): "otherError \(Self.oneLine(description))"
            }
        }

        /// Reads an outcome from a worker's output line.
        init?(line: String) {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            switch parts.first {
            case "succeeded": self = .succeeded(objects: parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
            case "storeError" where parts.count == 3: self = .storeError(code: parts[1], message: parts[2])
            case "otherError": self = .otherError(parts.dropFirst().joined(separator: " "))
            default: return nil
            }
        }

        /// Whether the outcome is a `StoreError` with one of ``BadFileProbe/acceptedCodes``.
        var isAcceptedError: Bool {
            guard case .storeError(let code, _) = self else { return false }
            return BadFileProbe.acceptedCodes.contains { $0.description == code }
        }

        /// The outcome in a failure message, ending with a full stop.
        var summary: String {
            let text =
                switch self {
                case .succeeded(let objects): "it succeeded (\(objects) objects read)"
                case .storeError(let code, let message): "StoreError \(code): \(message)"
                case .otherError(let description): "a \(description)"
                }
            return text.hasSuffix(".") ? text : text + "."
        }

        private static func oneLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }

    /// The `StoreError` codes a bad file may give: damaged or foreign (`corrupt`), unreadable
    /// (`io`), written with another model (`incompatibleModel`) or by a newer format version
    /// (`unsupported`).
    static let acceptedCodes: [StoreError.Code] = [.corrupt, .io, .incompatibleModel, .unsupported]

    /// The accepted codes in a failure message.
    static var acceptedCodesText: String { acceptedCodes.map(\.description).joined(separator: ", ") }

    let storeType: StoreType
    let options: StoreOptions

    /// Reads the metadata of the file at `url` without opening it.
    func readMetadata(at url: URL) -> Outcome {
        attempt {
            let coordinator = try PersistentStoreCoordinator(
                model: ConformanceModel.model, storeTypes: [storeType],
                valueTransformers: ConformanceModel.valueTransformers)
            _ = try coordinator.metadataForStore(type: storeType.name, at: url)
            return 0
        }
    }

    /// Opens the file at `url` in a new coordinator, reads every object, and closes it again.
    func open(_ url: URL) -> Outcome {
        attempt {
            let coordinator = try PersistentStoreCoordinator(
                model: ConformanceModel.model, storeTypes: [storeType],
                valueTransformers: ConformanceModel.valueTransformers)
            let store = try coordinator.addStore(type: storeType.name, at: url, options: options)
            defer { try? coordinator.remove(store) }
            return try readEverything(store)
        }
    }

    /// Reads every object of every entity of `store` and its to-many relationships; returns
    /// how many objects there were.
    private func readEverything(_ store: any IncrementalStore) throws -> Int {
        let model = ConformanceModel.model
        var count = 0
        for name in model.entityNames(inConfiguration: store.configurationName) {
            guard let entity = model.schema.entitiesByName[name] else { continue }
            for snapshot in try store.fetchedSnapshots(StoreFetchRequest(entityName: name, includesSubentities: false))
            {
                count += 1
                for relationship in entity.relationships where relationship.isToMany {
                    _ = try store.relatedObjectIDs(of: snapshot.objectID, relationship: relationship.name)
                }
            }
        }
        return count
    }

    private func attempt(_ body: () throws -> Int) -> Outcome {
        do {
            return .succeeded(objects: try body())
        } catch let error as StoreError {
            return .storeError(code: error.code.description, message: error.message)
        } catch {
            return .otherError("\(type(of: error)): \(error)")
        }
    }
}
