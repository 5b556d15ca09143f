import ArgumentParser
import Strata

/// `strata`: looks into, copies and checks store files of every built-in type.
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, dump, convert and validate Strata store files, and run the conformance suite.",
        version: StrataVersion.current,
        subcommands: [Demo.self, Inspect.self, Dump.self, Convert.self, Validate.self, Conformance.self])
}
