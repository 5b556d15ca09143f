import ArgumentParser
import Strata

/// `strata validate STORE`: checks every object of a store against the model.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every object of a store against the model; exit 1 when there are problems.",
        discussion: """
            The store is opened read-only. Checked: attribute types, required values, relationship counts \
            and references to objects the store does not hold. Each problem is printed on its own line.
            """)

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        var problemCount = 0
        try reportingFailure {
            let file = try StoreFile(path: store)
            let model = try file.model(try modelOptions.load())
            let opened = try file.open(model: model)
            let (problems, objectCount) = try StoreValidator(
                contents: StoreContents(store: opened, schema: model.schema)
            ).validate()
            for problem in problems { print(problem) }
            problemCount = problems.count
            print(
                "Checked \(objectCount) objects of the \(file.typeName) store at '\(file.name)': "
                    + (problems.isEmpty
                        ? "no problems." : problems.count == 1 ? "1 problem." : "\(problems.count) problems."))
        }
        if problemCount > 0 { throw ExitCode.failure }
    }
}
