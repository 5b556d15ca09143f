import Foundation
import Strata
import Testing

/// A model file is data: names it gives that could break out of SQL (a fetch index's name, a
/// composite's element, a configuration) are refused by validation before any store sees them,
/// exactly as names given in code are (HostileNameTests).
@Suite struct ModelFileHostileNameTests {
    @Test(arguments: [
        (
            #"<fetchIndex name="x ON ZITEM (ZNAME); DROP TABLE ZITEM; --"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex>"#,
            "x ON ZITEM (ZNAME); DROP TABLE ZITEM; --"
        ),
        (
            #"<fetchIndex name="x;COMMIT;CREATE TABLE PWNED (x);BEGIN;--"><fetchIndexElement property="lat" type="RTree"/></fetchIndex>"#,
            "x;COMMIT;CREATE TABLE PWNED (x);BEGIN;--"
        ),
        (#"<attribute name="address" attributeType="Composite" composite="Address"/>"#, "ci&#9;ty"),
    ])
    func aHostileNameInAModelFileIsRefused(element: String, name: String) throws {
        let composite = #"<composite name="Address"><attribute name="ci&#9;ty" attributeType="String"/></composite>"#
        let model = try ModelXML.load(
            body: """
                <entity name="Item">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="lat" attributeType="Double"/>
                    \(element)
                </entity>
                \(name.contains("&#9;") ? composite : "")
                """)
        let shown = name.replacingOccurrences(of: "&#9;", with: "\t")
        #expect(model.validationIssues().contains { $0.message.contains(shown) }, "\(model.validationIssues())")
        let error = #expect(throws: ModelError.self) {
            try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        }
        #expect(error?.code == .invalidModel)
    }

    @Test func aHostileConfigurationNameIsRefused() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Item"><attribute name="name" attributeType="String"/></entity>
                <configuration name="Local';--"><memberEntity name="Item"/></configuration>
                """)
        #expect(model.validationIssues().map(\.kind) == [.invalidName])
    }
}
