import Foundation
import Strata

/// Y: a composite attribute is stored as one value per element and read back after reopening,
/// and predicates and sort descriptors reach its elements by key path (`address.city`,
/// `address.geo.latitude`).
enum CompositeAttributeChecks {
    static var all: [ConformanceCheck] { [roundTrip, elementUpdate, predicates, sorting] }

    /// Places with an address, whose position nests a second composite.
    private static let atlasModel = ManagedObjectModel {
        EntityDescription("Place") {
            AttributeDescription("name", .string)
            AttributeDescription.composite(
                "address",
                elements: [
                    AttributeDescription("street", .string),
                    AttributeDescription("city", .string),
                    AttributeDescription.composite(
                        "geo",
                        elements: [
                            AttributeDescription("latitude", .double), AttributeDescription("longitude", .double),
                        ]),
                ])
        }
    }

    /// The places every check saves: name, city, street, latitude, longitude.
    private static let places: [(String, String, String?, Double, Double)] = [
        ("Bellecour", "Lyon", "Place Bellecour", 45.7578, 4.8320),
        ("Capitole", "Toulouse", nil, 43.6045, 1.4440),
        ("Fourvière", "Lyon", "Place de Fourvière", 45.7622, 4.8220),
        ("Vieux-Port", "Marseille", "Quai du Port", 43.2951, 5.3740),
    ]

    private static func withAtlas<T>(in harness: CheckHarness, _ body: (CheckStack) throws -> T) throws -> T {
        try harness.withStore(of: atlasModel, named: "atlas", body)
    }

    private static func savePlaces(in harness: CheckHarness) throws {
        try withAtlas(in: harness) { stack in
            for (name, city, street, latitude, longitude) in places {
                let place = try stack.insert("Place", ["name": .string(name)])
                try stack.run {
                    try place.setCompositeValue(
                        [
                            "city": .string(city), "street": street.map(AttributeValue.string) ?? .null,
                            "geo.latitude": .double(latitude), "geo.longitude": .double(longitude),
                        ], forKey: "address")
                }
            }
            try stack.save()
        }
    }

    private static func names(_ objects: [ManagedObject], in stack: CheckStack) throws -> [String] {
        try objects.map { object in
            guard case .string(let name) = try stack.value(object, "name") else { return "?" }
            return name
        }
    }

    private static let roundTrip = ConformanceCategory.compositeAttributes.check(
        "roundTrip", "Every element of a composite, nested ones and empty ones included, reads back after reopening."
    ) { harness in
        try savePlaces(in: harness)
        try withAtlas(in: harness) { stack in
            let capitole = try require(
                try stack.objects("Place", where: "name == 'Capitole'").first, "The saved Capitole is missing.")
            let address = try stack.run { try capitole.compositeValue(forKey: "address") }
            let expected: [String: AttributeValue] = [
                "city": "Toulouse", "street": .null, "geo.latitude": .double(43.6045), "geo.longitude": .double(1.4440),
            ]
            try expectEqual(address, expected, "Capitole's address")
            let geo = try stack.run { try capitole.compositeValue(forKey: "address.geo") }
            try expectEqual(
                geo, ["latitude": .double(43.6045), "longitude": .double(1.4440)], "Capitole's address.geo")
            try expectEqual(try stack.value(capitole, "address.city"), "Toulouse", "Capitole's address.city")
        }
    }

    private static let elementUpdate = ConformanceCategory.compositeAttributes.check(
        "elementUpdate", "Changing one element of a saved composite keeps the others."
    ) { harness in
        try savePlaces(in: harness)
        try withAtlas(in: harness) { stack in
            let port = try require(
                try stack.objects("Place", where: "name == 'Vieux-Port'").first, "The saved Vieux-Port is missing.")
            try stack.run { try port.setValue("Quai de la Fraternité", forKey: "address.street") }
            try stack.save()
        }
        try withAtlas(in: harness) { stack in
            let port = try require(
                try stack.objects("Place", where: "name == 'Vieux-Port'").first,
                "Vieux-Port is missing after reopening.")
            let address = try stack.run { try port.compositeValue(forKey: "address") }
            let expected: [String: AttributeValue] = [
                "city": "Marseille", "street": "Quai de la Fraternité", "geo.latitude": .double(43.2951),
                "geo.longitude": .double(5.3740),
            ]
            try expectEqual(address, expected, "Vieux-Port's address after the update")
        }
    }

    private static let predicates = ConformanceCategory.compositeAttributes.check(
        "predicates", "Predicates compare composite elements by key path, nested composites included."
    ) { harness in
        try savePlaces(in: harness)
        try withAtlas(in: harness) { stack in
            let byName = [FetchSortDescriptor("name")]
            let cases: [(String, [String])] = [
                ("address.city == 'Lyon'", ["Bellecour", "Fourvière"]),
                ("address.geo.latitude < 44", ["Capitole", "Vieux-Port"]),
                ("address.street == nil", ["Capitole"]),
                ("address.street BEGINSWITH 'Place' AND address.geo.longitude > 4.83", ["Bellecour"]),
            ]
            for (format, expected) in cases {
                let found = try names(try stack.objects("Place", where: format, sortedBy: byName), in: stack)
                try expectEqual(found, expected, "Places matching \(format)")
            }
        }
    }

    private static let sorting = ConformanceCategory.compositeAttributes.check(
        "sorting", "Sort descriptors order by composite elements, nested composites included."
    ) { harness in
        try savePlaces(in: harness)
        try withAtlas(in: harness) { stack in
            let byCityThenLatitude = [
                FetchSortDescriptor("address.city"),
                FetchSortDescriptor("address.geo.latitude", ascending: false),
            ]
            try expectEqual(
                try names(try stack.objects("Place", sortedBy: byCityThenLatitude), in: stack),
                ["Fourvière", "Bellecour", "Vieux-Port", "Capitole"], "Places by city, then latitude descending")
        }
    }
}
