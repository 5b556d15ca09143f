import Foundation
import Testing

@testable import Strata

/// A composite attribute is a named group of elements, kept as one attribute per leaf element
/// (`address.city`) that objects, predicates and sorts reach by key path.
@Suite struct CompositeAttributeTests {
    static let address = AttributeDescription.composite(
        "address",
        elements: [
            AttributeDescription("street", .string),
            AttributeDescription("city", .string, optional: false),
            AttributeDescription.composite(
                "geo",
                elements: [AttributeDescription("latitude", .double), AttributeDescription("longitude", .double)]),
        ])

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("name", .string)
                address
                RelationshipDescription.toOne("owner", destination: "Owner", inverse: "places")
            }
            EntityDescription("Owner") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("places", destination: "Place", inverse: "owner")
            }
        }
    }

    /// A context on an in-memory store holding Lyon (45.76) and Toulouse (43.60), both Ada's.
    static func savedPlaces() throws -> ManagedObjectContext {
        let coordinator = try PersistentStoreCoordinator(model: model())
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let owner = try context.insertNewObject(forEntityName: "Owner")
            try owner.setValue("Ada", forKey: "name")
            for (name, city, latitude) in [("Bellecour", "Lyon", 45.76), ("Capitole", "Toulouse", 43.60)] {
                let place = try context.insertNewObject(forEntityName: "Place")
                try place.setValue(.string(name), forKey: "name")
                try place.setCompositeValue(
                    ["city": .string(city), "geo.latitude": .double(latitude)], forKey: "address")
                try place.setObject(owner, forKey: "owner")
            }
            try context.save()
        }
        return context
    }

    static func request(_ entity: String, _ format: String) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try FetchPredicate(format: format)
        return request
    }

    @Test func theSchemaKeepsOneAttributePerLeafElement() throws {
        let model = Self.model()
        try model.freeze()
        let place = try #require(model.schema.entitiesByName["Place"])
        #expect(
            place.attributes.map(\.name) == [
                "name", "address.street", "address.city", "address.geo.latitude", "address.geo.longitude",
            ])
        #expect(place.attributesByName["address.city"]?.isOptional == false)
        #expect(
            place.compositeLeaves["address"] == [
                "address.street", "address.city", "address.geo.latitude", "address.geo.longitude",
            ])
        #expect(place.compositeLeaves["address.geo"] == ["address.geo.latitude", "address.geo.longitude"])
        #expect(place.compositeLeaf(startingWith: ["address", "geo", "latitude"])?.name == "address.geo.latitude")
        #expect(place.compositeLeaf(startingWith: ["address", "geo"]) == nil, "a path ending inside a composite")
        #expect(place.compositeLeaf(startingWith: ["owner", "name"]) == nil)
    }

    @Test func valuesReadBackWholeAndByElement() throws {
        let context = try Self.savedPlaces()
        try context.performAndWait {
            let places = try context.fetch(Self.request("Place", "name == 'Bellecour'"))
            let place = try #require(places.first)
            #expect(
                try place.compositeValue(forKey: "address")
                    == ["street": .null, "city": "Lyon", "geo.latitude": .double(45.76), "geo.longitude": .null])
            #expect(
                try place.compositeValue(forKey: "address.geo") == ["latitude": .double(45.76), "longitude": .null])
            #expect(try place.value(forKey: "address.city") == "Lyon")
            #expect(try place.value(forKeyPath: "address.geo.latitude") == .double(45.76))
            let owner = try #require(try place.object(forKey: "owner"))
            let other = try #require(try owner.objects(forKey: "places").first { $0 != place })
            #expect(try other.value(forKeyPath: "owner.name") == "Ada")
        }
    }

    @Test func settingTheWholeValueClearsMissingElementsAndRefusesBadOnes() throws {
        let context = try Self.savedPlaces()
        try context.performAndWait {
            let place = try #require(
                try context.fetch(Self.request("Place", "name == 'Bellecour'")).first)
            try place.setCompositeValue(["city": "Lyon 2e", "street": "Rue de la République"], forKey: "address")
            #expect(try place.value(forKey: "address.geo.latitude") == .null)
            #expect(try place.value(forKey: "address.street") == "Rue de la République")
            let unknown = #expect(throws: ContextError.self) {
                try place.setCompositeValue(["town": "Lyon"], forKey: "address")
            }
            #expect(unknown?.code == .unknownKey)
            #expect(unknown?.message.contains("address.town") == true)
            let wrong = #expect(throws: ContextError.self) {
                try place.setCompositeValue(["city": "Lyon", "geo.latitude": "north"], forKey: "address")
            }
            #expect(wrong?.code == .wrongType)
            #expect(try place.value(forKey: "address.city") == "Lyon 2e", "a refused value changes nothing")
            let notComposite = #expect(throws: ContextError.self) { try place.compositeValue(forKey: "name") }
            #expect(notComposite?.code == .unknownKey)
        }
    }

    @Test func predicatesAndSortsReachElementsByKeyPath() throws {
        let context = try Self.savedPlaces()
        try context.performAndWait {
            func names(_ format: String, sortedBy sort: [FetchSortDescriptor] = [FetchSortDescriptor("name")]) throws
                -> [AttributeValue]
            {
                var request = try Self.request("Place", format)
                request.sortDescriptors = sort
                return try context.fetch(request).map { try $0.value(forKey: "name") }
            }
            #expect(try names("address.city == 'Lyon'") == ["Bellecour"])
            #expect(try names("address.geo.latitude < 44") == ["Capitole"])
            #expect(try names("owner.name == 'Ada' AND address.street == nil") == ["Bellecour", "Capitole"])
            #expect(
                try names("TRUEPREDICATE", sortedBy: [FetchSortDescriptor("address.geo.latitude")])
                    == ["Capitole", "Bellecour"])
            let owners = try context.fetch(Self.request("Owner", "ANY places.address.city == 'Toulouse'"))
            #expect(owners.count == 1)
        }
    }

    @Test func unknownKeysInAPathStillNameTheFirstUnknownKey() throws {
        let context = try Self.savedPlaces()
        try context.performAndWait {
            let place = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Place")).first)
            let error = #expect(throws: FetchPredicateError.self) {
                _ = try FetchPredicate(format: "address.town == 'Lyon'").evaluate(with: place)
            }
            #expect(error?.message.contains("'address'") == true)
        }
    }

    @Test func theModelRefusesWhatACompositeCannotHold() {
        var transientElement = AttributeDescription("note", .string)
        transientElement.isTransient = true
        var derivedComposite = AttributeDescription.composite(
            "address", elements: [AttributeDescription("city", .string)])
        derivedComposite.derivationExpression = "name"
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("name", .string)
                AttributeDescription.composite(
                    "badAddress",
                    elements: [
                        AttributeDescription("city", .string), AttributeDescription("city", .integer16),
                        transientElement,
                        AttributeDescription("bad.name", .string),
                        AttributeDescription("scan", .binary).externallyStored(),
                    ])
                derivedComposite
            }
        }
        let issues = model.validationIssues()
        #expect(issues.allSatisfy { $0.kind == .invalidComposite })
        let messages = issues.map(\.message)
        #expect(messages.contains { $0.contains("'Place.badAddress' declares element 'city' twice") })
        #expect(messages.contains { $0.contains("'Place.badAddress.note'") })
        #expect(messages.contains { $0.contains("'bad.name'") })
        #expect(messages.contains { $0.contains("'Place.badAddress.scan'") })
        #expect(messages.contains { $0.contains("'Place.address' may not be transient, derived") })
        #expect(issues.count == 5)
    }

    @Test func leavesCarryTheirEarlierPathsForMigrations() {
        var renamed = Self.address
        renamed.renamingIdentifier = "home"
        renamed.elements[2].elements[0].renamingIdentifier = "lat"
        #expect(
            renamed.leafAttributes.map(\.renamingIdentifier) == [
                "home.street", "home.city", "home.geo.lat", "home.geo.longitude",
            ])
        #expect(Self.address.leafAttributes.allSatisfy { $0.renamingIdentifier == nil })
    }

    @Test func uniquenessConstraintsNameElementsNotComposites() {
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                Self.address
                AttributeDescription("scan", .binary).externallyStored()
                UniquenessConstraint("address")
                UniquenessConstraint("scan")
            }
        }
        let issues = model.validationIssues()
        #expect(issues.map(\.kind) == [.invalidConstraintProperty, .invalidConstraintProperty])
        #expect(issues.first?.message.contains("composite attribute") == true)
        #expect(issues.last?.message.contains("external binary data") == true)
    }

    @Test func anEmptyCompositeIsValidAndHoldsNothing() throws {
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("name", .string)
                AttributeDescription.composite("extra", elements: [])
            }
        }
        #expect(model.validationIssues().isEmpty)
        try model.freeze()
        #expect(model.schema.entitiesByName["Place"]?.compositeLeaves["extra"] == [])
    }

    /// Core Data hashes a composite from its leaf elements' hashes, ordered by their own names.
    @Test func theVersionHashCoversTheLeafElementsByName() {
        let leaves = ["city", "latitude", "longitude", "street"].map { name in
            Self.address.leafAttributes.first { $0.name.hasSuffix("." + name) }.map { leaf in
                var leaf = leaf
                leaf.name = name
                return leaf
            }!
        }
        #expect(VersionHash.attribute(Self.address) == SHA2.sha256(leaves.flatMap(VersionHash.attribute)))
        var reordered = Self.address
        reordered.elements.reverse()
        #expect(VersionHash.attribute(reordered) == VersionHash.attribute(Self.address))
        var changed = Self.address
        changed.elements[0].isOptional = false
        #expect(VersionHash.attribute(changed) != VersionHash.attribute(Self.address))
    }

    @Test func theJSONFormKeepsElements() throws {
        let model = Self.model()
        let copy = try ManagedObjectModel(jsonData: model.jsonData())
        #expect(copy.entity(named: "Place")?.attribute(named: "address") == Self.address)
        #expect(copy.jsonData() == model.jsonData())
    }
}
