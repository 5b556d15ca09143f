import Foundation
import Strata

/// S: values of a transformable attribute go into the store as their transformer's data and come
/// back through it after reopening.
enum TransformedValueChecks {
    static var all: [ConformanceCheck] { [roundTrip, clearedValue, missingTransformer] }

    private static let key = ConformanceModel.attributeName(for: .transformable)
    private static let swatch = ConformanceModel.Swatch(colour: "teal", sizes: [1, 2, 3])

    private static let roundTrip = ConformanceCategory.transformedValues.check(
        "roundTrip",
        "A value set through its transformer reads back equal after reopening, stored as the transformer's data."
    ) { harness in
        try saveSample(in: harness) { try $0.setTransformedValue(swatch, forKey: key) }
        try harness.withStore { stack in
            let sample = try require(try stack.objects(ConformanceModel.sample).first, "The saved Sample is missing.")
            let read = try stack.run { try sample.transformedValue(forKey: key, as: ConformanceModel.Swatch.self) }
            try expectEqual(read, swatch, "Sample.\(key) read through its transformer")
            let expected = try JSONValueTransformer<ConformanceModel.Swatch>().data(from: swatch)
            try expectEqual(try stack.value(sample, key), .binary(expected), "Sample.\(key) as stored")
        }
    }

    private static let clearedValue = ConformanceCategory.transformedValues.check(
        "cleared", "A transformed value set to nil reads back as nil after reopening."
    ) { harness in
        try saveSample(in: harness) { sample in
            try sample.setTransformedValue(swatch, forKey: key)
            try sample.setTransformedValue(nil, forKey: key)
        }
        try harness.withStore { stack in
            let sample = try require(try stack.objects(ConformanceModel.sample).first, "The saved Sample is missing.")
            let read = try stack.run { try sample.transformedValue(forKey: key) }
            try expect(read == nil, "Sample.\(key) was cleared but reads back as \(read.map { "\($0)" } ?? "")")
        }
    }

    private static let missingTransformer = ConformanceCategory.transformedValues.check(
        "missingTransformer",
        "A coordinator lacking the transformer refuses to add the store, naming the attribute, and leaves it "
            + "readable."
    ) { harness in
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 7, key: .binary(Data("{}".utf8))])
            try stack.save()
        }
        let bare = try PersistentStoreCoordinator(model: harness.model, storeTypes: [harness.suite.storeType])
        try expectError(
            "StoreError.missingValueTransformer naming Sample.\(key)",
            { _ = try harness.openStore(in: bare) },
            matches: { error in
                (error as? StoreError)?.code == .missingValueTransformer
                    && (error as? StoreError)?.message.contains("Sample.\(key)") == true
            })
        try harness.withStore { stack in
            try expectEqual(try stack.objects(ConformanceModel.sample).count, 1, "Sample objects after the refusal")
        }
    }

    /// Saves a `Sample` with serial 1, after `change` set its transformed value.
    private static func saveSample(in harness: CheckHarness, _ change: (ManagedObject) throws -> Void) throws {
        try harness.withStore { stack in
            try stack.run {
                let sample = try stack.context.insertNewObject(forEntityName: ConformanceModel.sample)
                try sample.setValue(1, forKey: "serial")
                try change(sample)
            }
            try stack.save()
        }
    }
}
