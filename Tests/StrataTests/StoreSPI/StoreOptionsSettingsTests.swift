import Strata
import Testing

/// A store reads its string settings with `integer(_:of:)` and `boolean(_:of:)`, which turn a
/// value they cannot read into a typed error naming the type, the key and the value.
@Suite struct StoreOptionsSettingsTests {
    let options = StoreOptions(settings: ["size": "42", "bad": "4k", "on": "true", "off": "false", "maybe": "yes"])

    @Test func settingsReadAsTheirKindAndMissingOnesAreNil() throws {
        #expect(try options.integer("size", of: "Demo") == 42)
        #expect(try options.boolean("on", of: "Demo") == true)
        #expect(try options.boolean("off", of: "Demo") == false)
        #expect(try options.integer("absent", of: "Demo") == nil)
        #expect(try options.boolean("absent", of: "Demo") == nil)
    }

    @Test(arguments: ["bad", "maybe"])
    func aValueThatDoesNotReadIsInvalidOptionNamingIt(_ key: String) {
        let error = #expect(throws: StoreError.self) {
            if key == "bad" {
                _ = try options.integer(key, of: "Demo")
            } else {
                _ = try options.boolean(key, of: "Demo")
            }
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.message.contains("Demo") == true && error?.message.contains("'\(key)'") == true)
        #expect(error?.message.contains("'\(options.settings[key] ?? "")'") == true)
    }
}
