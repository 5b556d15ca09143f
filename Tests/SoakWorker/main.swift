import Foundation
import Strata
import StrataLMDB
import StrataSQLite
import StrataXML

// The worker of the soaks in StrataTestSupport:
// `SoakWorker write <SQLite|LMDB> <store> <writer> <seconds> <seed> [skips-every-fifth-save]`
// is one writer of `TwoWriterSoak`;
// `SoakWorker memory <SQLite|LMDB> <store> <objects> <rounds> [keeps-every-context]` runs the
// rounds of `MemorySoak`;
// `SoakWorker striped <folder> <saves> <step> [saves-store-by-store]` is the worker of
// `StripedSaveKills`; `SoakWorker striped-recover <folder>` adds its stores and kills itself
// once one completed a save from the log; `SoakWorker striped-writer <folder> <writer> <seconds>`
// is one writer of `StripedTwoWriterSoak`.
let arguments = Array(CommandLine.arguments.dropFirst())
let storeType = arguments.count > 1 ? [StoreType.sqlite, .lmdb].first { $0.name == arguments[1] } : nil
do {
    switch (arguments.first, storeType) {
    case ("write", let storeType?):
        guard var writer = TwoWriterSoakWriter(storeType: storeType, arguments: Array(arguments.dropFirst(2))) else {
            break
        }
        try writer.run()
        exit(0)
    case ("memory", let storeType?):
        let keepsEveryContext = arguments.count == 6 && arguments[5] == "keeps-every-context"
        guard arguments.count == 5 || keepsEveryContext, let objects = Int(arguments[3]), let rounds = Int(arguments[4])
        else { break }
        try MemorySoakRounds(
            storeType: storeType, url: URL(fileURLWithPath: arguments[2]), keepsEveryContext: keepsEveryContext
        ).run(objects: objects, rounds: rounds)
        exit(0)
    case ("striped-recover", _) where arguments.count == 2:
        try StripedSaveWriter.recover(folder: URL(fileURLWithPath: arguments[1]))
        exit(0)
    case ("striped-writer", _) where arguments.count == 4:
        guard let seconds = Double(arguments[3]) else { break }
        try StripedSoakWriter.run(folder: URL(fileURLWithPath: arguments[1]), writer: arguments[2], seconds: seconds)
        exit(0)
    case ("striped", _):
        guard let writer = StripedSaveWriter(arguments: Array(arguments.dropFirst())) else { break }
        try writer.run()
        exit(0)
    default:
        break
    }
    FileHandle.standardError.write(
        Data(
            ("usage: SoakWorker write SQLite|LMDB <store> <writer> <seconds> <seed> [skips-every-fifth-save]\n"
                + "       SoakWorker memory SQLite|LMDB <store> <objects> <rounds> [keeps-every-context]\n"
                + "       SoakWorker striped <folder> <saves> <step> [saves-store-by-store]\n"
                + "       SoakWorker striped-recover <folder>\n"
                + "       SoakWorker striped-writer <folder> <writer> <seconds>\n").utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("The soak worker failed: \(error)\n".utf8))
    exit(1)
}
