import Foundation
import Strata

/// A seeded random workload applied in lockstep to the store under test and the oracle:
/// inserts, updates, deletes, relationship edits and saves, with fetches (random predicates,
/// sorts and pages built from the model) compared along the way. Everything random comes
/// from the harness's seeded generator, so the seed replays a failure.
final class RandomWorkload {
    /// What fetches the workload compares.
    enum Fetches {
        /// Any fetch: unsorted or sorted, sometimes paged.
        case mixed
        /// Only sorted fetches with an offset and a limit.
        case paged
    }

    private let dataSet: CanonicalDataSet
    private let fetches: Fetches
    private var random: SeededGenerator
    private let comparison: OracleComparison
    private var subjectObjects: [Int64: ManagedObject] = [:]
    private var oracleObjects: [Int64: ManagedObject] = [:]
    private var nextSerial: Int64 = 1000
    private(set) var log: [String] = []

    init(
        _ dataSet: CanonicalDataSet, fetches: Fetches, random: SeededGenerator, comparison: OracleComparison
    ) throws {
        self.dataSet = dataSet
        self.fetches = fetches
        self.random = random
        self.comparison = comparison
        for entity in Self.entities(of: dataSet) {
            subjectObjects.merge(try Self.objectsBySerial(entity, comparison.subject)) { first, _ in first }
            oracleObjects.merge(try Self.objectsBySerial(entity, comparison.oracle)) { first, _ in first }
        }
    }

    /// The entities of `dataSet` whose objects the workload changes and compares.
    static func entities(of dataSet: CanonicalDataSet) -> [String] {
        switch dataSet {
        case .records: [ConformanceModel.sample]
        case .graph: ["Person", "Team"]
        }
    }

    /// Runs `count` random operations, then saves.
    func run(_ count: Int) throws {
        for _ in 0..<count { try step() }
        try apply("save") { stack, _ in try stack.save() }
    }

    private func step() throws {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<25: try insert()
        case 25..<50: try update()
        case 50..<60: try delete()
        case 60..<72: try apply("save") { stack, _ in try stack.save() }
        case 72..<82 where dataSet == .graph: try editRelationship()
        default: try compareFetch()
        }
    }

    // Changes.

    private func insert() throws {
        let serial = nextSerial
        nextSerial += 1
        let entity: String
        var values: [String: AttributeValue] = ["serial": .integer64(serial)]
        switch dataSet {
        case .records:
            entity = ConformanceModel.sample
            for key in Self.sampleKeys where Bool.random(using: &random) { values[key] = sampleValue(key) }
        case .graph:
            entity = Int.random(in: 0..<5, using: &random) == 0 ? "Team" : "Person"
            values["name"] = name()
            if entity == "Person" { values["age"] = age() }
        }
        log.append(
            "insert \(entity) \(serial) {"
                + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}")
        subjectObjects[serial] = try comparison.subject.insert(entity, values)
        oracleObjects[serial] = try comparison.oracle.insert(entity, values)
    }

    private func update() throws {
        guard let serial = randomSerial() else { return }
        let entity = subjectObjects[serial]!.entity.name
        let key =
            switch entity {
            case ConformanceModel.sample: Self.sampleKeys.randomElement(using: &random)!
            case "Person": Bool.random(using: &random) ? "name" : "age"
            default: "name"
            }
        let value =
            switch key {
            case "name": name()
            case "age": age()
            default: sampleValue(key)
            }
        try apply("set \(entity) \(serial).\(key) = \(value)") { stack, objects in
            try stack.run { try objects[serial]!.setValue(value, forKey: key) }
        }
    }

    private func delete() throws {
        guard let serial = randomSerial() else { return }
        try apply("delete \(subjectObjects[serial]!.entity.name) \(serial)") { stack, objects in
            try stack.run { try stack.context.delete(objects[serial]!) }
        }
        subjectObjects[serial] = nil
        oracleObjects[serial] = nil
    }

    private func editRelationship() throws {
        let people = subjectObjects.filter { $0.value.entity.name == "Person" }.keys.sorted()
        let teams = subjectObjects.filter { $0.value.entity.name == "Team" }.keys.sorted()
        guard let person = people.randomElement(using: &random) else { return }
        let other = people.randomElement(using: &random)!
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let team = Bool.random(using: &random) ? teams.randomElement(using: &random) : nil
            try apply("set Person \(person).team = \(team.map(String.init) ?? "nil")") { stack, objects in
                try stack.run { try objects[person]!.setObject(team.map { objects[$0]! }, forKey: "team") }
            }
        case 1:
            let manager = Bool.random(using: &random) ? other : nil
            try apply("set Person \(person).manager = \(manager.map(String.init) ?? "nil")") { stack, objects in
                try stack.run { try objects[person]!.setObject(manager.map { objects[$0]! }, forKey: "manager") }
            }
        case 2:
            try apply("add Person \(other) to Person \(person).friends") { stack, objects in
                try stack.run { try objects[person]!.addObject(objects[other]!, forKey: "friends") }
            }
        default:
            try apply("remove Person \(other) from Person \(person).friends") { stack, objects in
                try stack.run { try objects[person]!.removeObject(objects[other]!, forKey: "friends") }
            }
        }
    }

    /// Applies `change` to the store under test and then to the oracle, each with its own
    /// objects by serial.
    private func apply(_ description: String, _ change: (CheckStack, [Int64: ManagedObject]) throws -> Void) throws {
        log.append(description)
        try change(comparison.subject, subjectObjects)
        try change(comparison.oracle, oracleObjects)
    }

    private func randomSerial() -> Int64? { subjectObjects.keys.sorted().randomElement(using: &random) }

    // Fetches.

    private func compareFetch() throws {
        let entity = Self.entities(of: dataSet).randomElement(using: &random)!
        let format = Int.random(in: 0..<5, using: &random) == 0 ? nil : predicate(entity)
        var sorts: [FetchSortDescriptor] = []
        if fetches == .paged || Bool.random(using: &random) {
            for _ in 0..<Int.random(in: 1...2, using: &random) { sorts.append(sortDescriptor(entity)) }
            sorts.append(FetchSortDescriptor("serial"))
        }
        let paged = fetches == .paged || (!sorts.isEmpty && Int.random(in: 0..<3, using: &random) == 0)
        let query = OracleQuery(
            entity, where: format?.format, format?.arguments ?? [], sortedBy: sorts,
            offset: paged ? Int.random(in: 0...6, using: &random) : 0,
            limit: paged ? Int.random(in: 1...10, using: &random) : nil)
        log.append("fetch \(query)")
        try comparison.expectSameResults(query)
    }

    private func predicate(_ entity: String) -> (format: String, arguments: [any PredicateArgument]) {
        var format = ""
        var arguments: [any PredicateArgument] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let part = entity == ConformanceModel.sample ? sampleComparison() : graphComparison(entity)
            let negated = Int.random(in: 0..<4, using: &random) == 0
            if index > 0 { format += Bool.random(using: &random) ? " AND " : " OR " }
            format += negated ? "NOT (\(part.format))" : "(\(part.format))"
            arguments += part.arguments
        }
        return (format, arguments)
    }

    private func sampleComparison() -> (format: String, arguments: [any PredicateArgument]) {
        let key = Self.sampleKeys.randomElement(using: &random)!
        let ordered = ["int16", "int32", "int64", "decimal", "double", "float", "string", "date"].contains(key)
        var operators = ["==", "!=", "IN"]
        if ordered { operators += ["<", "<=", ">", ">=", "BETWEEN"] }
        if key == "string" { operators += ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"] }
        let op = operators.randomElement(using: &random)!
        switch op {
        case "==", "!=": return ("%K \(op) %@", [key, sampleValue(key)])
        case "IN":
            return ("%K IN %@", [key, (0..<Int.random(in: 1...3, using: &random)).map { _ in nonNilSampleValue(key) }])
        case "BETWEEN": return ("%K BETWEEN %@", [key, [nonNilSampleValue(key), nonNilSampleValue(key)]])
        case "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE":
            let options = ["", "[c]", "[d]", "[cd]"].randomElement(using: &random)!
            var pattern = String(
                String(attributeValue: nonNilSampleValue(key))!.prefix(Int.random(in: 1...3, using: &random)))
            if op == "LIKE" { pattern += ["*", "?*", ""].randomElement(using: &random)! }
            return ("%K \(op)\(options) %@", [key, pattern])
        default: return ("%K \(op) %@", [key, nonNilSampleValue(key)])
        }
    }

    private func graphComparison(_ entity: String) -> (format: String, arguments: [any PredicateArgument]) {
        let age = Int32.random(in: 10...70, using: &random)
        let name = self.name()
        let templates: [(String, [any PredicateArgument])] =
            entity == "Team"
            ? [
                ("members.@count > %@", [Int.random(in: 0...3, using: &random)]), ("ANY members.age > %@", [age]),
                ("name ==[c] %@", [name]), ("members.@avg.age < %@", [age]), ("ALL members.age >= %@", [age]),
            ]
            : [
                ("age > %@", [age]),
                ("name BEGINSWITH[cd] %@", [String((String(attributeValue: name) ?? "a").prefix(1))]),
                ("team.name == %@", [name]), ("manager.age < %@", [age]), ("ANY friends.age > %@", [age]),
                ("friends.@count >= %@", [Int.random(in: 0...3, using: &random)]), ("team == nil", []),
                ("manager.manager == nil", []), ("SUBQUERY(friends, $f, $f.age < %@).@count > 0", [age]),
                ("NONE friends.name == %@", [name]), ("age == nil", []),
            ]
        let (format, arguments) = templates.randomElement(using: &random)!
        return (format, arguments)
    }

    private func sortDescriptor(_ entity: String) -> FetchSortDescriptor {
        let keys =
            switch entity {
            case ConformanceModel.sample: Self.sampleKeys
            case "Person": ["name", "age", "team.name", "manager.age"]
            default: ["name"]
            }
        let comparison: FetchSortDescriptor.Comparison =
            [.binary, .caseInsensitive, .localizedStandard].randomElement(using: &random)!
        return FetchSortDescriptor(
            keys.randomElement(using: &random)!, ascending: Bool.random(using: &random), comparison: comparison)
    }

    // Values.

    private static let sampleKeys = [
        "int16", "int32", "int64", "decimal", "double", "float", "string", "boolean", "date", "binary", "uuid", "uri",
    ]

    /// A value for the Sample attribute `key`: mostly one the canonical data set has (nil
    /// included), so that equality finds matches, otherwise a fresh one.
    private func sampleValue(_ key: String) -> AttributeValue {
        if Int.random(in: 0..<4, using: &random) > 0 {
            return CanonicalDataSet.samples.randomElement(using: &random)![key] ?? .null
        }
        let number = Int.random(in: -1000...1000, using: &random)
        return switch key {
        case "int16": .integer16(Int16(number))
        case "int32": .integer32(Int32(number) * 7919)
        case "int64": .integer64(Int64(number) * 1_000_000_007)
        case "decimal": .decimal(Decimal(number) / 100)
        case "double": .double(Double(number) / 8)
        case "float": .float(Float(number) / 4)
        case "string": .string(String((0..<(number & 3)).map { _ in "aAbßéz".randomElement(using: &random)! }))
        case "boolean": .boolean(number.isMultiple(of: 2))
        case "date": .date(CanonicalDataSet.date(number))
        case "binary": .binary(Data((0..<(number & 3)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case "uuid": .uuid(CanonicalDataSet.uuids[abs(number) % CanonicalDataSet.uuids.count])
        default: .uri(URL(string: "https://example.com/\(number)")!)
        }
    }

    private func nonNilSampleValue(_ key: String) -> AttributeValue {
        while true {
            let value = sampleValue(key)
            if value != .null { return value }
        }
    }

    private func name() -> AttributeValue {
        ["Ada", "ada", "Émile", "Red", "blue", "zoë", "Zoe", nil].randomElement(using: &random)!.map { .string($0) }
            ?? .null
    }

    private func age() -> AttributeValue {
        Int.random(in: 0..<6, using: &random) == 0 ? .null : .integer32(Int32.random(in: 10...70, using: &random))
    }

    private static func objectsBySerial(_ entity: String, _ stack: CheckStack) throws -> [Int64: ManagedObject] {
        var objects: [Int64: ManagedObject] = [:]
        for object in try stack.objects(entity) {
            objects[try OracleComparison.serial(try stack.value(object, "serial"))] = object
        }
        return objects
    }
}
