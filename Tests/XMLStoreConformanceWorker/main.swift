import Foundation
import StrataConformance

@testable import StrataXML

// The conformance worker of the XML store: the durability and unreadable-file checks of
// XMLStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .xml, arguments: Array(CommandLine.arguments.dropFirst())))
