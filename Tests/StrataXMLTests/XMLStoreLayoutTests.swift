import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataXML

/// A Strata XML store is laid out as Core Data lays one out, and its bytes depend only on the
/// graph it holds.
@Suite struct XMLStoreLayoutTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func aStoreIsLaidOutAsCoreDataLaysOneOut() throws {
        let url = directory.file("library.xml")
        try XMLStore(fileURL: url).write(LibraryGraph.contents(authors: 1, booksEach: 2))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text.hasPrefix(
                """
                <?xml version="1.0" standalone="yes"?>
                <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

                <database>
                    <databaseInfo>
                        <version>134481920</version>
                        <UUID>\(LibraryGraph.storeIdentifier)</UUID>
                        <nextObjectID>3</nextObjectID>
                        <metadata>
                            <plist version="1.0">
                                <dict>
                                    <key>NSStoreModelVersionHashes</key>
                                    <dict>
                                        <key>Author</key>
                """))
        #expect(
            text.hasSuffix(
                """
                    <object type="AUTHOR" id="z1">
                        <attribute name="born" type="date">0.0</attribute>
                        <attribute name="name" type="string">Author 0</attribute>
                        <relationship name="books" type="0/0" destination="BOOK" idrefs="z2 z3"></relationship>
                    </object>
                    <object type="BOOK" id="z2">
                        <attribute name="cover" type="binary">AAD/</attribute>
                        <attribute name="price" type="decimal">0.95</attribute>
                        <attribute name="title" type="string">Book 0 of 0 &lt;&amp;&gt;</attribute>
                        <relationship name="author" type="1/1" destination="AUTHOR" idrefs="z1"></relationship>
                    </object>
                    <object type="BOOK" id="z3" version="2">
                        <attribute name="cover" type="binary">AAD/</attribute>
                        <attribute name="price" type="decimal">1.95</attribute>
                        <attribute name="rating" type="double">0.3333333333333333</attribute>
                        <attribute name="title" type="string">Book 1 of 0 &lt;&amp;&gt;</attribute>
                        <relationship name="author" type="1/1" destination="AUTHOR" idrefs="z1"></relationship>
                    </object>
                </database>
                """))
    }

    @Test func aCarriageReturnIsACharacterReference() throws {
        let url = directory.file("library.xml")
        var contents = LibraryGraph.contents(authors: 1, booksEach: 0)
        contents.nodes[0].snapshot.values["name"] = "one\r\ntwo"
        try XMLStore(fileURL: url).write(contents)
        #expect(try String(contentsOf: url, encoding: .utf8).contains(">one&#13;\ntwo</attribute>"))
        #expect(try XMLStore(fileURL: url).load()?.nodes.first?.snapshot.values["name"] == "one\r\ntwo")
    }

    @Test func userKeysXMLCannotSpellAreKeptExactly() throws {
        let url = directory.file("library.xml")
        var contents = LibraryGraph.contents(authors: 1, booksEach: 0)
        let userInfo: [String: AttributeValue] = ["bell\u{7}": "ring", "nul": "a\u{0}b", "plain": 3]
        contents.metadata.userInfo = userInfo
        try XMLStore(fileURL: url).write(contents)
        #expect(try XMLStore(fileURL: url).load()?.metadata.userInfo == userInfo)
    }

    @Test func savingTheSameGraphTwiceGivesTheSameBytes() throws {
        let contents = LibraryGraph.contents(authors: 20, booksEach: 3)
        var shuffled = contents
        shuffled.nodes.reverse()
        try XMLStore(fileURL: directory.file("first.xml")).write(contents)
        try XMLStore(fileURL: directory.file("second.xml")).write(shuffled)
        #expect(try Data(contentsOf: directory.file("first.xml")) == Data(contentsOf: directory.file("second.xml")))
    }

    @Test func reSavingAnUnchangedStoreGivesTheSameBytes() throws {
        let url = directory.file("library.xml")
        let model = LibraryGraph.model
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.xml])
        let store = try coordinator.addStore(type: StoreType.xml.name, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ada", forKey: "name")
            try author.setValue(.date(Date(timeIntervalSinceReferenceDate: 1.000_000_1)), forKey: "born")
            for title in ["Notes", "Sketches"] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(.string(title), forKey: "title")
                try book.setValue(.binary(Data(title.utf8)), forKey: "cover")
                try author.addObject(book, forKey: "books")
            }
            try context.save()
        }
        try coordinator.remove(store)
        let saved = try Data(contentsOf: url)
        let loaded = try #require(try XMLStore(fileURL: url).load())
        try XMLStore(fileURL: url).write(loaded)
        #expect(try Data(contentsOf: url) == saved)
    }

    @Test func loadingForAModelHoldsValuesByItsSlotsAndReadsTheSameGraph() throws {
        let url = directory.file("library.xml")
        let contents = LibraryGraph.contents(authors: 2, booksEach: 3)
        try XMLStore(fileURL: url).write(contents)
        let schema = LibraryGraph.model.schema
        let bySlot = try #require(try XMLStore(fileURL: url).load(slotsOf: schema))
        let byName = try #require(try XMLStore(fileURL: url).load())
        #expect(Set(bySlot.nodes) == Set(byName.nodes) && bySlot.nodes.count == 8)
        for node in bySlot.nodes {
            let entity = try #require(schema.entitiesByName[node.snapshot.objectID.entityName])
            #expect(node.snapshot.values.slots(for: entity) != nil)
        }
    }
}
