import Foundation
import Testing

@testable import Strata

/// Reading and writing an object's attributes and to-one relationships by key and key path.
@Suite struct ManagedObjectKeyValueTests {
    @Test func aValueSetByKeyReadsBackAndIsSaved() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book")
            try book.setValue("Dune", forKey: "title")
            try book.setValue(.decimal(12.5), forKey: "price")
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "price") == .decimal(12.5))
            #expect(try book.value(forKey: "pages") == .null)
            try stack.context.save()
            let stored = try #require(try stack.stored(book.objectID))
            #expect(stored["title"] == "Dune")
            #expect(stored["pages"] == .null)
        }
    }

    @Test func aNewObjectStartsAtTheModelDefaults() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book")
            #expect(try book.value(forKey: "note") == "none")
            #expect(try book.value(forKey: "title") == .null)
            #expect(try book.value(forKey: "author") == .null)
        }
    }

    @Test func setValueConvertsToTheAttributeType() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book")
            try book.setValue(.integer64(412), forKey: "pages")
            guard case .integer32(412) = try book.value(forKey: "pages") else {
                Issue.record("pages is \(try book.value(forKey: "pages")), not .integer32(412)")
                return
            }
            try book.setValue(.double(300), forKey: "pages")
            guard case .integer32(300) = try book.value(forKey: "pages") else {
                Issue.record("pages is \(try book.value(forKey: "pages")), not .integer32(300)")
                return
            }
            try book.setValue(.integer16(7), forKey: "price")
            #expect(try book.value(forKey: "price") == .decimal(7))
            try book.setValue(.null, forKey: "pages")
            #expect(try book.value(forKey: "pages") == .null)
        }
    }

    @Test func aValueTheAttributeCannotHoldIsAWrongTypeErrorNamingEntityAndKey() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["pages": .integer32(10)])
            for bad: AttributeValue in ["ten", .integer64(Int64(Int32.max) + 1), .double(1.5), .boolean(true)] {
                let error = try #require(throws: ContextError.self) { try book.setValue(bad, forKey: "pages") }
                #expect(error.code == .wrongType)
                #expect(error.message.contains("'Book.pages'"))
                #expect(try book.value(forKey: "pages") == .integer32(10))
            }
            let error = try #require(throws: ContextError.self) { try book.setValue(.integer32(3), forKey: "title") }
            #expect(error.code == .wrongType)
            #expect(error.message.contains("'Book.title'"))
        }
    }

    @Test func anUnknownKeyIsAnErrorNamingEntityAndKey() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book")
            let read = try #require(throws: ContextError.self) { try book.value(forKey: "isbn") }
            #expect(read.code == .unknownKey)
            #expect(read.message.contains("'Book'"))
            #expect(read.message.contains("'isbn'"))
            let write = try #require(throws: ContextError.self) { try book.setValue("x", forKey: "isbn") }
            #expect(write.code == .unknownKey)
            #expect(write.message.contains("'Book'") && write.message.contains("'isbn'"))
            #expect(book.changedValues()["isbn"] == nil)
        }
    }

    @Test func aToManyRelationshipIsNotAValueAndAnAttributeIsNotARelationship() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book")
            let byValue = try #require(throws: ContextError.self) { try author.value(forKey: "books") }
            #expect(byValue.code == .unknownKey)
            #expect(byValue.message.contains("'Author'") && byValue.message.contains("'books'"))
            let asToOne = try #require(throws: ContextError.self) { try author.object(forKey: "books") }
            #expect(asToOne.code == .unknownKey)
            let asToMany = try #require(throws: ContextError.self) { try book.objects(forKey: "author") }
            #expect(asToMany.code == .unknownKey)
            #expect(asToMany.message.contains("'Book'") && asToMany.message.contains("'author'"))
            let attribute = try #require(throws: ContextError.self) { try book.setObject(author, forKey: "title") }
            #expect(attribute.code == .unknownKey)
            #expect(try book.value(forKey: "title") == .null)
        }
    }

    @Test func aToOneRelationshipIsAnObjectIDByKey() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setValue(.objectID(ada.objectID), forKey: "author")
            #expect(try book.object(forKey: "author") === ada)
            #expect(try book.value(forKey: "author") == .objectID(ada.objectID))
            #expect(try ada.objects(forKey: "books") == [book])
            let error = try #require(throws: ContextError.self) { try book.setValue("Ada", forKey: "author") }
            #expect(error.code == .wrongType)
            #expect(error.message.contains("'Book.author'"))
            try book.setValue(.null, forKey: "author")
            #expect(try book.object(forKey: "author") == nil)
            #expect(try ada.objects(forKey: "books").isEmpty)
        }
    }

    @Test func aKeyPathFollowsToOneRelationships() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            let cover = try stack.insert("Cover", ["color": "red"])
            try book.setObject(ada, forKey: "author")
            try book.setObject(cover, forKey: "cover")
            #expect(try book.value(forKeyPath: "author.name") == "Ada")
            #expect(try cover.value(forKeyPath: "book.author.name") == "Ada")
            #expect(try cover.value(forKeyPath: "book.title") == "Dune")
            #expect(try cover.value(forKeyPath: "book.author") == .objectID(ada.objectID))
            #expect(try book.value(forKeyPath: "title") == "Dune")
            try book.setObject(nil, forKey: "author")
            #expect(try cover.value(forKeyPath: "book.author.name") == .null)
        }
    }

    @Test func aKeyPathThroughSavedFaultsLoadsEachStep() throws {
        let stack = try CatalogStack()
        let coverID: ObjectID = try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            let cover = try stack.insert("Cover", ["color": "red"])
            try book.setObject(ada, forKey: "author")
            try cover.setObject(book, forKey: "book")
            try stack.context.save()
            return cover.objectID
        }
        let reader = stack.makeContext(name: "reader")
        try reader.performAndWait {
            let cover = reader.object(with: coverID)
            #expect(cover.isFault)
            #expect(try cover.value(forKeyPath: "book.author.name") == "Ada")
            let book = try #require(try cover.object(forKey: "book"))
            #expect(!book.isFault)
        }
    }

    @Test func aKeyPathWithAWrongComponentNamesIt() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(try stack.insert("Author", ["name": "Ada"]), forKey: "author")
            let throughAttribute = try #require(throws: ContextError.self) {
                try book.value(forKeyPath: "title.length")
            }
            #expect(throughAttribute.code == .unknownKey)
            #expect(throughAttribute.message.contains("'Book'") && throughAttribute.message.contains("'title'"))
            let missingEnd = try #require(throws: ContextError.self) { try book.value(forKeyPath: "author.age") }
            #expect(missingEnd.code == .unknownKey)
            #expect(missingEnd.message.contains("'Author'") && missingEnd.message.contains("'age'"))
            let toManyEnd = try #require(throws: ContextError.self) { try book.value(forKeyPath: "author.books") }
            #expect(toManyEnd.code == .unknownKey)
            #expect(toManyEnd.message.contains("'books'"))
        }
    }
}
