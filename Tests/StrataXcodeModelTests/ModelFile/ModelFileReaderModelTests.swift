import Strata
import StrataXcodeModel
import Testing

@Suite struct ModelFileReaderModelTests {
    @Test(arguments: [
        ("", [String]()), ("userDefinedModelVersionIdentifier=\"\"", [""]),
        ("userDefinedModelVersionIdentifier=\"7\"", ["7"]),
    ])
    func versionIdentifierMapsLikeCoreData(_ rootAttributes: String, _ identifiers: [String]) throws {
        let model = try ModelXML.load(ModelXML.file("", rootAttributes: rootAttributes), in: TemporaryDirectory())
        #expect(model.versionIdentifiers == identifiers)
    }

    @Test func fetchRequestTemplatesAndConfigurationsMap() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Post"/>
                <entity name="Tag"/>
                <fetchRequest name="byTitle" entity="Post" predicateString="title == $TITLE" fetchLimit="5"/>
                <fetchRequest name="all" entity="Tag"/>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Post"/>
                    <memberEntity name="Tag"/>
                </configuration>
                <configuration name="Local"><memberEntity name="Tag"/></configuration>
                <elements><element name="Post" positionX="0" positionY="0" width="128" height="44"/></elements>
                """)
        #expect(
            model.fetchRequestTemplates == [
                FetchRequestTemplate(name: "byTitle", entityName: "Post", predicateFormat: "title == $TITLE"),
                FetchRequestTemplate(name: "all", entityName: "Tag"),
            ])
        #expect(model.configurations == ["Cloud": ["Post", "Tag"], "Local": ["Tag"]])
        #expect(model.validationIssues().isEmpty)
    }

    @Test func wrongRootElementIsMalformed() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict/></plist>
            """
        let error = try #require(ModelXML.error(text))
        #expect(error.code == .malformedFile && error.line == 2)
        #expect(
            error.message.contains("line 2: the root element is <plist>, but an Xcode model file starts with <model>"))
    }

    @Test func skippedPartsAreLoggedOncePerKindAtDebug() throws {
        let (logger, messages) = CapturingLogHandler.logger()
        _ = try ModelXML.load(
            body: """
                <entity name="A" syncable="YES" codeGenerationType="class">
                    <attribute name="x" optional="YES" attributeType="Boolean" usesScalarValueType="YES" syncable="YES"/>
                    <attribute name="y" optional="YES" attributeType="Boolean" usesScalarValueType="NO"/>
                </entity>
                <elements><element name="A" positionX="0" positionY="0" width="128" height="44"/></elements>
                """, logger: logger)
        let logged = messages.all
        #expect(logged.allSatisfy { $0.level == .debug })
        #expect(
            logged.map(\.message) == [
                "Ignored model@type: not used by Strata.", "Ignored model@documentVersion: not used by Strata.",
                "Ignored model@lastSavedToolsVersion: not used by Strata.",
                "Ignored model@systemVersion: not used by Strata.",
                "Ignored model@minimumToolsVersion: not used by Strata.",
                "Ignored model@sourceLanguage: not used by Strata.", "Ignored entity@syncable: not used by Strata.",
                "Ignored entity@codeGenerationType: not used by Strata.",
                "Ignored attribute@usesScalarValueType: not used by Strata.",
                "Ignored attribute@syncable: not used by Strata.",
                "Ignored <elements> inside <model>: not used by Strata.",
            ])
        let scalar = try #require(logged.first { $0.message.contains("usesScalarValueType") })
        #expect(scalar.metadata["occurrences"] == "2" && scalar.metadata["line"] == "4")
    }
}
