import Testing

@Suite struct CommandHelpTests {
    @Test(arguments: [
        [], ["demo"], ["model"], ["inspect"], ["dump"], ["query"], ["convert"], ["validate"], ["conformance"], ["sync"],
        ["sync-server"], ["sync-token"],
    ])
    func everyCommandHasHelp(command: [String]) throws {
        let outcome = try StrataProcess.run(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE: strata"))
    }

    @Test func anUnknownCommandFails() throws {
        let outcome = try StrataProcess.run(["explode"])
        #expect(outcome.status != 0)
        #expect(outcome.error.contains("explode"))
    }
}
