import Foundation
import Testing

@testable import Strata

/// Validation at save: every failure of the model's rules and of objects' own checks, reported together.
@Suite struct ManagedObjectContextValidationTests {
    /// Refuses the nickname "root" in ``Account/validateValue(_:forKey:)``.
    struct ReservedNickname: Error {}
    /// Refuses changes to a closed account in ``Account/validateForUpdate()``.
    struct AccountClosed: Error {}

    /// An account with its own validation, counting how often each check runs.
    final class Account: ManagedObject {
        override class var entityName: String { "Account" }
        @Managed var handle: String?
        @Managed var nickname: String?
        @Managed var balance: Int64
        @Managed var closed: Bool

        var validatedKeys: [String] = []
        var insertChecks = 0
        var updateChecks = 0
        var deleteChecks = 0

        override func validateValue(_ value: inout AttributeValue, forKey key: String) throws {
            validatedKeys.append(key)
            if key == "handle", case .string(let text) = value { value = .string(text.lowercased()) }
            if key == "nickname", value == "root" { throw ReservedNickname() }
        }

        override func validateForInsert() throws {
            insertChecks += 1
            try super.validateForInsert()
            if balance < 0 {
                throw ValidationError(
                    code: .custom, objectID: objectID, key: "balance",
                    message: "\(objectID) cannot open with a negative balance.")
            }
        }

        override func validateForUpdate() throws {
            updateChecks += 1
            try super.validateForUpdate()
            if committedValues(forKeys: ["closed"])["closed"] == true { throw AccountClosed() }
        }

        override func validateForDelete() throws {
            deleteChecks += 1
            try super.validateForDelete()
            if balance != 0 {
                throw ValidationError(
                    code: .custom, objectID: objectID, key: "balance",
                    message: "\(objectID) still holds \(balance) and cannot be deleted.")
            }
        }
    }

    /// One failure, as a value that can be compared.
    struct Failure: Hashable, CustomStringConvertible {
        var objectID: ObjectID
        var key: String?
        var code: ValidationError.Code

        init(_ object: ManagedObject, _ key: String?, _ code: ValidationError.Code) {
            self.init(objectID: object.objectID, key: key, code: code)
        }

        init(objectID: ObjectID, key: String?, code: ValidationError.Code) {
            self.objectID = objectID
            self.key = key
            self.code = code
        }

        init(_ error: ValidationError) { self.init(objectID: error.objectID, key: error.key, code: error.code) }

        var description: String { "\(objectID.entityName).\(key ?? "-"): \(code)" }
    }

    /// Clubs, members with bounded attributes and relationship counts, badges and accounts in
    /// one in-memory store.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Club") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("members", destination: "Member", inverse: "club")
                }
                EntityDescription("Member") {
                    AttributeDescription("name", .string, optional: false, min: 2, max: 10)
                    AttributeDescription("age", .integer16, min: 0, max: 130)
                    AttributeDescription("score", .double, min: 0.0, max: 1.0)
                    AttributeDescription("email", .string).matching("[a-z]+@[a-z]+\\.org")
                    AttributeDescription("avatar", .binary, max: 4)
                    RelationshipDescription.toOne("club", destination: "Club", inverse: "members", isOptional: false)
                    RelationshipDescription.toMany(
                        "badges", destination: "Badge", inverse: "holder", minCount: 2, maxCount: 3)
                }
                EntityDescription("Badge") {
                    AttributeDescription("label", .string)
                    RelationshipDescription.toOne("holder", destination: "Member", inverse: "badges")
                }
                EntityDescription("Account") {
                    AttributeDescription("handle", .string, optional: false, min: 3)
                    AttributeDescription("nickname", .string)
                    AttributeDescription("balance", .integer64, default: 0)
                    AttributeDescription("closed", .boolean, default: false)
                }
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            coordinator.register(Account.self)
            store = try coordinator.addStore(type: StoreType.inMemory.name)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        @discardableResult
        func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        func badges(_ count: Int, for member: ManagedObject) throws {
            for index in 0..<count {
                try member.addObject(try insert("Badge", ["label": .string("badge \(index)")]), forKey: "badges")
            }
        }

        func count(_ entity: String) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }

        func account(_ handle: String, balance: Int64 = 0) -> Account {
            let account = Account(context: context)
            account.handle = handle
            account.balance = balance
            return account
        }
    }

    private func validationError(_ context: ManagedObjectContext) throws -> ContextError {
        let error = try #require(throws: ContextError.self) { try context.save() }
        #expect(error.code == .validation)
        return error
    }

    @Test func aSaveReportsEveryFailureOfEveryObjectAndWritesNothing() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let club = try stack.insert("Club", ["name": "Chess"])
            let a = try stack.insert("Member", ["age": .integer16(200), "email": "bob"])
            let b = try stack.insert("Member", ["name": "X", "age": -1, "score": 1.5, "email": "bob@chess.org"])
            let c = try stack.insert("Member", ["name": "Bartholomew!", "avatar": .binary(Data([1, 2, 3, 4, 5]))])
            let d = try stack.insert("Member", ["name": "Dee", "score": -0.5])
            let e = try stack.insert("Member", ["name": "Eve", "age": 30, "email": "eve@chess.org"])
            for member in [b, c, d, e] { try member.setObject(club, forKey: "club") }
            try stack.badges(4, for: c)
            try stack.badges(1, for: d)

            let error = try validationError(stack.context)
            let expected: Set<Failure> = [
                Failure(a, "name", .missingValue), Failure(a, "age", .tooLarge),
                Failure(a, "email", .patternMismatch), Failure(a, "club", .missingValue),
                Failure(b, "name", .tooShort), Failure(b, "age", .tooSmall), Failure(b, "score", .tooLarge),
                Failure(c, "name", .tooLong), Failure(c, "avatar", .tooLong), Failure(c, "badges", .tooManyObjects),
                Failure(d, "score", .tooSmall), Failure(d, "badges", .tooFewObjects),
            ]
            #expect(Set(error.validationErrors.map(Failure.init)) == expected)
            #expect(error.validationErrors.count == expected.count)
            #expect(error.message.hasPrefix("The save failed with 12 validation errors: "))
            for failure in error.validationErrors {
                let key = try #require(failure.key)
                #expect(failure.message.contains("'Member.\(key)'"), "\(failure.message)")
                #expect(failure.message.contains(failure.objectID.uriString), "\(failure.message)")
            }

            #expect(try stack.count("Club") == 0)
            #expect(try stack.count("Member") == 0)
            #expect(try stack.count("Badge") == 0)
            #expect(stack.context.registeredObjects.allSatisfy { $0.objectID.isTemporary && $0.isInserted })

            try a.setValue("Abe", forKey: "name")
            try a.setValue(.integer16(20), forKey: "age")
            try a.setValue("abe@chess.org", forKey: "email")
            try a.setObject(club, forKey: "club")
            try b.setValue("Bo", forKey: "name")
            try b.setValue(.integer16(0), forKey: "age")
            try b.setValue(1.0, forKey: "score")
            try c.setValue("Bart", forKey: "name")
            try c.setValue(.binary(Data([1, 2, 3, 4])), forKey: "avatar")
            try c.removeObject(try #require(try c.objects(forKey: "badges").first), forKey: "badges")
            try d.setValue(0.0, forKey: "score")
            try stack.badges(1, for: d)
            try stack.context.save()
            #expect(try stack.count("Member") == 5)
            #expect(try stack.count("Badge") == 6)
        }
    }

    @Test func anInvalidChangeToASavedObjectIsNotWritten() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let club = try stack.insert("Club", ["name": "Chess"])
            let member = try stack.insert("Member", ["name": "Ann", "age": 40])
            try member.setObject(club, forKey: "club")
            try stack.context.save()

            try member.setValue(.integer16(500), forKey: "age")
            try member.setValue("", forKey: "name")
            try club.setValue("Go", forKey: "name")
            let error = try validationError(stack.context)
            #expect(
                Set(error.validationErrors.map(Failure.init)) == [
                    Failure(member, "age", .tooLarge), Failure(member, "name", .tooShort),
                ])
            let stored = try #require(try stack.store.snapshot(for: member.objectID))
            #expect(stored.values["age"] == .integer16(40))
            #expect(stored.values["name"] == "Ann")
            #expect(stored.version == 1)
            #expect(try stack.store.snapshot(for: club.objectID)?.values["name"] == "Chess")
            #expect(member.isUpdated && club.isUpdated)

            try member.setValue(.integer16(41), forKey: "age")
            try member.setValue("Anne", forKey: "name")
            try stack.context.save()
            #expect(try stack.store.snapshot(for: member.objectID)?.values["name"] == "Anne")
            #expect(try stack.store.snapshot(for: member.objectID)?.version == 2)
        }
    }

    @Test func validateValueMayReplaceAValueBeforeItIsSaved() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let account = stack.account("ADA")
            try stack.context.save()
            #expect(account.handle == "ada")
            #expect(try stack.store.snapshot(for: account.objectID)?.values["handle"] == "ada")
            #expect(!stack.context.hasChanges)
        }
    }

    @Test func aValueValidateValueRefusesIsACustomFailureForItsKey() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let account = stack.account("ada")
            account.nickname = "root"
            let error = try validationError(stack.context)
            let failure = try #require(error.validationErrors.first)
            #expect(error.validationErrors.count == 1)
            #expect(Failure(failure) == Failure(account, "nickname", .custom))
            #expect(failure.underlying is ReservedNickname)
            #expect(failure.message.contains("'Account.nickname'"))
            #expect(failure.message.contains(account.objectID.uriString))
            #expect(try stack.count("Account") == 0)
        }
    }

    @Test func validateValueSeesOnlyValuesThatPassTheModelRules() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let account = stack.account("ab")
            let error = try validationError(stack.context)
            #expect(error.validationErrors.map(Failure.init) == [Failure(account, "handle", .tooShort)])
            #expect(Set(account.validatedKeys) == ["nickname", "balance", "closed"])
        }
    }

    @Test func insertChecksRunForNewObjectsAndUpdateChecksForChangedOnes() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let good = stack.account("good")
            let bad = stack.account("bad", balance: -5)
            let error = try validationError(stack.context)
            let failure = try #require(error.validationErrors.first)
            #expect(error.validationErrors.count == 1)
            #expect(Failure(failure) == Failure(bad, "balance", .custom))
            #expect(failure.message.contains("negative balance"))
            #expect((good.insertChecks, bad.insertChecks) == (1, 1))
            #expect(try stack.count("Account") == 0)

            bad.balance = 5
            try stack.context.save()
            #expect((good.insertChecks, bad.insertChecks) == (2, 2))
            #expect((good.updateChecks, bad.updateChecks) == (0, 0))
            #expect(try stack.count("Account") == 2)

            good.nickname = "goody"
            try stack.context.save()
            #expect((good.insertChecks, bad.insertChecks) == (2, 2))
            #expect((good.updateChecks, bad.updateChecks) == (1, 0))
            #expect((good.deleteChecks, bad.deleteChecks) == (0, 0))
        }
    }

    @Test func anUpdateCheckThatThrowsRefusesTheWholeSave() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let open = stack.account("open")
            let closed = stack.account("closed")
            closed.closed = true
            try stack.context.save()

            open.nickname = "still open"
            closed.nickname = "sneaky"
            let error = try validationError(stack.context)
            let failure = try #require(error.validationErrors.first)
            #expect(error.validationErrors.count == 1)
            #expect(Failure(failure) == Failure(closed, nil, .custom))
            #expect(failure.underlying is AccountClosed)
            #expect(failure.message.contains(closed.objectID.uriString))
            #expect(try stack.store.snapshot(for: open.objectID)?.values["nickname"] == .null)
            #expect(try stack.store.snapshot(for: closed.objectID)?.values["nickname"] == .null)
        }
    }

    @Test func aDeleteCheckThatThrowsKeepsTheObject() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let rich = stack.account("rich", balance: 10)
            let empty = stack.account("empty")
            try stack.context.save()

            try stack.context.delete(rich)
            try stack.context.delete(empty)
            let error = try validationError(stack.context)
            #expect(error.validationErrors.map(Failure.init) == [Failure(rich, "balance", .custom)])
            #expect((rich.deleteChecks, empty.deleteChecks) == (1, 1))
            #expect(try stack.store.snapshot(for: rich.objectID) != nil)
            #expect(try stack.store.snapshot(for: empty.objectID) != nil)

            stack.context.rollback()
            rich.balance = 0
            try stack.context.save()
            try stack.context.delete(rich)
            try stack.context.save()
            #expect(rich.deleteChecks == 2)
            #expect(try stack.count("Account") == 1)
        }
    }

    @Test func failuresOfModelRulesAndOfObjectsOwnChecksArriveTogether() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let club = try stack.insert("Club", ["name": "Chess"])
            let member = try stack.insert("Member", ["name": "Ann", "age": -3])
            try member.setObject(club, forKey: "club")
            let reserved = stack.account("first")
            reserved.nickname = "root"
            let negative = stack.account("second", balance: -1)
            let error = try validationError(stack.context)
            #expect(
                Set(error.validationErrors.map(Failure.init)) == [
                    Failure(member, "age", .tooSmall), Failure(reserved, "nickname", .custom),
                    Failure(negative, "balance", .custom),
                ])
            #expect(error.message.hasPrefix("The save failed with 3 validation errors: "))
            #expect(try stack.count("Account") == 0)
            #expect(try stack.count("Member") == 0)
        }
    }
}
