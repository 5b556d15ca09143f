import Foundation
import StrataFuzzTargets
import StrataTestSupport
import Testing

/// Replays every input kept for each fuzz target (`Tests/Fixtures/fuzz/<target>/`): the
/// seed corpus `make fuzz` starts from (`seed-*`, each of which must read without an error,
/// so that the fuzzer starts from inputs that reach deep into the parser) and each input a
/// fuzzer found a fault with. A regression stops the test process, as it stopped the fuzzer.
@Suite struct FuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static func inputs(of target: FuzzTarget) -> [URL] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func replaysEveryKeptInput(target: FuzzTarget) throws {
        let inputs = Self.inputs(of: target)
        #expect(!inputs.isEmpty, "The \(target.rawValue) corpus needs seeds in \(Self.corpus.path).")
        let folder = try TemporaryDirectory()
        for input in inputs {
            let accepted = target.run(try Data(contentsOf: input), in: folder.url)
            if input.lastPathComponent.hasPrefix("seed-") {
                #expect(accepted, "The seed \(input.lastPathComponent) should read without an error.")
            }
        }
    }
}
