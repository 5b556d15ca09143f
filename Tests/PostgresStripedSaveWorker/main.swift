import Foundation
@_spi(FaultInjection) import Strata
import StrataPostgres
import StrataSQLite
@_spi(FaultInjection) import StrataTestSupport

// Saves a city named <name> to a SQLite store in a folder and a visit (and a tip) to PostgreSQL
// in one save across both, killing itself (SIGKILL) at a step of it: for PostgresStripedSaveTests.
// `PostgresStripedSaveWorker <folder> <store URL> <step> <name> [<tips store URL>]`, the tips in a
// third store on the server; exits 3 when the step never came.
let arguments = CommandLine.arguments
guard arguments.count == 5 || arguments.count == 6, let url = URL(string: arguments[2]),
    let step = FileAndServerStores.steps[arguments[3]]
else {
    FileHandle.standardError.write(
        Data("usage: PostgresStripedSaveWorker <folder> <store URL> <step> <name> [<tips store URL>]\n".utf8))
    exit(2)
}
do {
    let coordinator = try FileAndServerStores.open(
        folder: URL(fileURLWithPath: arguments[1]), server: url, tips: arguments.dropFirst(5).first.flatMap(URL.init),
        fileType: .sqlite, serverType: .postgres)
    coordinator.probeStripedSaves { reached in
        if reached == step { kill(getpid(), SIGKILL) }
    }
    try FileAndServerStores.save(arguments[4], in: coordinator)
    exit(3)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
