import Foundation

/// A one-line description of the machine: operating system, processor, cores and memory.
enum Machine {
    static var description: String {
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        return "\(kernel) \(release) \(machine), \(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + String(format: "%.0f GiB RAM", memory)
    }
}
