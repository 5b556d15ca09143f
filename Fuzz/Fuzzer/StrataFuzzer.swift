import Foundation
import StrataFuzzTargets

// Built with `-DSTRATA_FUZZING` and `--sanitize=fuzzer` (`make fuzz`), this is a libFuzzer
// entry point for the target named by `STRATA_FUZZ_TARGET`; otherwise it replays files:
// `StrataFuzzer TARGET FILE…` runs each file through the target and prints its name.

#if STRATA_FUZZING
    private let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["STRATA_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            fatalError("Set STRATA_FUZZ_TARGET to one of: \(names) (it is '\(name)').")
        }
        return target
    }()

    private let scratch = FuzzScratchFolder.make()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        target.run(Data(bytes: start, count: count), in: scratch)
        return 0
    }
#else
    @main
    struct StrataFuzzerReplay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                print("usage: StrataFuzzer \(names) FILE…")
                exit(2)
            }
            let scratch = FuzzScratchFolder.make()
            for path in arguments.dropFirst() {
                guard let input = FileManager.default.contents(atPath: path) else {
                    print("Could not read '\(path)'.")
                    exit(1)
                }
                print(path)
                target.run(input, in: scratch)
            }
        }
    }
#endif
