import Strata

/// Which object of a replica's store each global ID names, and back: the replica's side of
/// ``GlobalID``. An object of the store seen for the first time gets a new global ID.
public struct SyncIdentities: Sendable, Hashable, Codable {
    private var globalIDs: [ObjectID: GlobalID] = [:]
    private var objectIDs: [GlobalID: ObjectID] = [:]

    /// No identities yet.
    public init() {}

    /// The global ID of the store's object `objectID`, given a new one when it has none.
    public mutating func globalID(for objectID: ObjectID) -> GlobalID {
        if let known = globalIDs[objectID] { return known }
        let id = GlobalID.random()
        bind(id, to: objectID)
        return id
    }

    /// The global ID of the store's object `objectID`, if it has one.
    public func existingGlobalID(for objectID: ObjectID) -> GlobalID? { globalIDs[objectID] }

    /// The store's objects that have a global ID.
    var boundObjectIDs: Dictionary<ObjectID, GlobalID>.Keys { globalIDs.keys }

    /// The store's object that `globalID` names, if the replica has it.
    public func objectID(for globalID: GlobalID) -> ObjectID? { objectIDs[globalID] }

    /// Names the store's object `objectID` by `globalID`, replacing what either named before.
    public mutating func bind(_ globalID: GlobalID, to objectID: ObjectID) {
        if let old = objectIDs[globalID] { globalIDs[old] = nil }
        if let old = globalIDs[objectID] { objectIDs[old] = nil }
        globalIDs[objectID] = globalID
        objectIDs[globalID] = objectID
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        // Temporary IDs name objects not saved yet, which the next run cannot find.
        let saved = globalIDs.filter { !$0.key.isTemporary }
        try container.encode(Dictionary(uniqueKeysWithValues: saved.map { ($0.key.uriString, $0.value) }))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        for (uri, globalID) in try container.decode([String: GlobalID].self) {
            guard let objectID = ObjectID(uriString: uri), !objectID.isTemporary else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(uri)' is not the URI of a saved object.")
            }
            bind(globalID, to: objectID)
        }
    }
}
