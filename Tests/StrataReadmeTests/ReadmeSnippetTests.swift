import Testing

/// README's examples are the compiled ones, letter for letter.
@Suite struct ReadmeSnippetTests {
    @Test func everyExampleInReadmeIsCompiled() throws {
        let compiled = try ReadmeSnippets.compiled()
        let shown = try ReadmeSnippets.shown()
        #expect(
            Set(compiled.keys) == [
                "model", "container", "insert-fetch", "typed-classes", "typed-model", "typed", "observing", "striping",
                "striping-postgres", "cross-store",
                "migration",
                "model-versions", "custom-store",
                "conformance", "history", "remote-changes", "remote-changes-loop", "search",
            ])
        #expect(Set(shown.keys) == Set(compiled.keys))
        for (name, text) in compiled.sorted(by: { $0.key < $1.key }) {
            #expect(shown[name] == text, "README's '\(name)' example differs from the compiled one:\n\(text)")
        }
    }
}
