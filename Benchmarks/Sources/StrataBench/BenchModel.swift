import Foundation
import Strata

/// The model every store is measured on: one entity with an indexed Int64, a 16-character
/// string, a double, a date, a boolean, 32 bytes of data and a to-many relationship to itself.
enum BenchModel {
    static let entity = "Item"

    /// The item's attributes.
    static let attributes = [
        AttributeDescription("number", .integer64, optional: false).indexed(), AttributeDescription("name", .string),
        AttributeDescription("score", .double), AttributeDescription("stamp", .date),
        AttributeDescription("flag", .boolean), AttributeDescription("blob", .binary),
    ]

    static func makeModel() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Item") {
                for attribute in attributes { attribute }
                RelationshipDescription.toMany("children", destination: "Item", inverse: "parent")
                RelationshipDescription.toOne("parent", destination: "Item", inverse: "children")
            }
        }
        try model.freeze()
        return model
    }

    /// The next version of the model, a lightweight step from it: `name` renamed `title`
    /// (through its renaming identifier) and an Integer 32 `rank` added with default 0.
    static func makeNextVersion() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("number", .integer64, optional: false).indexed()
                AttributeDescription("title", .string).renamed(from: "name")
                AttributeDescription("score", .double)
                AttributeDescription("stamp", .date)
                AttributeDescription("flag", .boolean)
                AttributeDescription("blob", .binary)
                AttributeDescription("rank", .integer32, optional: false, default: 0)
                RelationshipDescription.toMany("children", destination: "Item", inverse: "parent")
                RelationshipDescription.toOne("parent", destination: "Item", inverse: "children")
            }
        }
        try model.freeze()
        return model
    }

    /// Sets the attributes of `object` from `record`.
    static func fill(_ object: ManagedObject, from record: ItemRecord) throws {
        try object.setValue(.integer64(record.number), forKey: "number")
        try object.setValue(.string(record.name), forKey: "name")
        try object.setValue(.double(record.score), forKey: "score")
        try object.setValue(.date(Date(timeIntervalSinceReferenceDate: record.stamp)), forKey: "stamp")
        try object.setValue(.boolean(record.flag), forKey: "flag")
        try object.setValue(.binary(Data(record.blob)), forKey: "blob")
    }

    /// Reads every attribute of `object`, firing it if it is a fault; returns a checksum so
    /// the reads cannot be optimised away.
    static func touch(_ object: ManagedObject) throws -> Int {
        var sum = 0
        for key in ["number", "name", "score", "stamp", "flag", "blob"] {
            if case .string(let text) = try object.value(forKey: key) { sum &+= text.utf8.count } else { sum &+= 1 }
        }
        return sum
    }
}

/// The benchmark's item as a typed class, for typed requests and reads (`fetch-indexed-typed`,
/// `read-typed`).
final class BenchItem: ManagedObject {
    override class var entityName: String { BenchModel.entity }
    @Managed var number: Int64
    @Managed var name: String
    @Managed var score: Double
    @Managed var stamp: Date
    @Managed var flag: Bool
    @Managed var blob: Data

    /// Reads every attribute through its typed property, as ``BenchModel/touch(_:)`` reads them
    /// by key; returns a checksum so the reads cannot be optimised away.
    func touch() -> Int {
        var sum = name.utf8.count &+ Int(truncatingIfNeeded: number) &+ blob.count
        sum &+= Int(score.sign == .minus ? 1 : 0) &+ Int(stamp.timeIntervalSinceReferenceDate.sign == .minus ? 1 : 0)
        return flag ? sum &+ 1 : sum
    }
}
