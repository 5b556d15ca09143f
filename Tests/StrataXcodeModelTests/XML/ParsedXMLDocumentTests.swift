import Foundation
import Strata
import StrataXcodeModel
import Testing

@Suite struct ParsedXMLDocumentTests {
    @Test func truncatedXMLIsMalformedWithFileAndLine() throws {
        let directory = try TemporaryDirectory()
        let full = ModelXML.file("<entity name=\"A\">\n<attribute name=\"a\" attributeType=\"String\"/>\n</entity>")
        let error = try #require(ModelXML.error(String(full.dropLast(30)), in: directory))
        let path = directory.url.appendingPathComponent("Test.xcdatamodel/contents").path
        #expect(error.code == .malformedFile && error.filePath == path)
        #expect(error.line == 4)
        #expect(error.message.hasPrefix("'\(path)', line 4: not well-formed XML: "))
    }

    @Test func emptyFileIsMalformed() throws {
        let error = try #require(ModelXML.error(""))
        #expect(error.code == .malformedFile)
        #expect(error.message.contains("not well-formed XML"))
    }

    /// libxml2 keeps element lines in 16 bits and, with `XML_PARSE_BIG_LINES`, takes larger
    /// ones from the neighbouring text node, so they may be off by one.
    @Test func lineNumbersAbove65535AreKept() throws {
        let text = ModelXML.file(String(repeating: "\n", count: 70_000) + "<entity/>")
        let error = try #require(ModelXML.error(text))
        #expect((70_003...70_004).contains(error.line ?? 0))
    }

    @Test(arguments: [
        "<!ENTITY name \"Car\">",
        "<!ENTITY name SYSTEM \"file:///etc/hostname\">",
        "<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY name \"&b;&b;&b;&b;&b;&b;&b;&b;\">",
    ])
    func entitiesAreNeverExpanded(_ declarations: String) throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE model [\(declarations)]>
            <model><entity name="&name;"/></model>
            """
        let error = try #require(ModelXML.error(text))
        #expect(error.code == .malformedFile && error.line == 3)
        #expect(
            error.message.contains("name= uses the entity reference '&name;'")
                || error.message.contains("not well-formed XML: Attribute references external entity 'name'"))
    }

    @Test func externalEntitiesInContentAreNeitherLoadedNorExpanded() throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.write("<<< not XML", to: "secret.txt")
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE model [<!ENTITY secret SYSTEM "\(secret.absoluteString)">]>
            <model><entity name="A">&secret;</entity></model>
            """
        let error = try #require(ModelXML.error(text, in: directory))
        #expect(error.code == .malformedFile && error.line == 3)
        #expect(error.message.contains("<entity> uses the entity reference '&secret;'"))
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreRead() throws {
        let model = try ModelXML.load(
            body:
                "<fetchRequest name=\"q\" entity=\"A\" predicateString=\"title == &quot;a&amp;b&quot; AND n &lt; &#51;\"/>"
        )
        #expect(model.fetchRequestTemplates[0].predicateFormat == "title == \"a&b\" AND n < 3")
    }
}
