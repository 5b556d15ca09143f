import Foundation
import Testing

@testable import Strata

/// Generic access by key and key path, with typed errors naming the entity and key.
@Suite struct ManagedObjectKeyValueTests {
    @Test func keysAndKeyPathsReadAndWrite() throws {
        let stack = try LibraryStack()
        let author = try stack.insert("Author", ["name": "Herbert"])
        let book = try stack.insert("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            try book.setObject(author, forKey: "author")
            #expect(try book.value(forKeyPath: "author.name") == "Herbert")
            #expect(try book.value(forKey: "author") == .objectID(author.objectID))
            try book.setValue(.integer64(300), forKey: "pages")
            #expect(try book.value(forKey: "pages") == .integer32(300))
            try book.setObject(nil, forKey: "author")
            #expect(try book.value(forKeyPath: "author.name") == .null)
        }
    }

    @Test func unknownKeysAndWrongTypesAreTypedErrors() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "Dune"])
        stack.context.performAndWait {
            #expect {
                try book.value(forKey: "colour")
            } throws: {
                let error = $0 as? ContextError
                return error?.code == .unknownKey && error?.message.contains("Book") == true
                    && error?.message.contains("colour") == true
            }
            #expect {
                try book.setValue("many", forKey: "pages")
            } throws: {
                let error = $0 as? ContextError
                return error?.code == .wrongType && error?.message.contains("pages") == true
            }
            #expect {
                try book.setValue("x", forKey: "author")
            } throws: {
                ($0 as? ContextError) != nil
            }
        }
    }
}
