import Foundation

/// The report as a readable table, one block per store.
enum ReportTable {
    static func render(_ report: BenchReport) -> String {
        var lines = [
            "Strata benchmarks, N = \(report.n), on \(report.machine)",
            "load-by-id, update and delete touch \(report.touched) objects; traverse visits "
                + "\(report.traversedParents) parents"
                + (report.touched < min(BenchData.fullTouched, report.n) ? scaledNote : ""),
            "",
        ]
        let header = ["workload", "median ms", "min–max ms", "µs/object", "× raw", "× GRDB", "peak RSS"]
        for store in StoreSetup.all.map(\.name) {
            let rows = report.results.filter { $0.store == store }
            guard !rows.isEmpty else { continue }
            lines.append("\(store) store")
            var table = [header]
            for row in rows {
                table.append([
                    row.workload, format(row.medianMs), "\(format(row.minMs))–\(format(row.maxMs))",
                    perObject(row, in: report),
                    row.ratioToRaw.map { String(format: "%.2f", $0) } ?? "–",
                    row.ratioToGRDB.map { String(format: "%.2f", $0) } ?? "–",
                    row.peakRSSBytes.map { String(format: "%.1f MiB", $0 / 1_048_576) } ?? "–",
                ])
            }
            let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
            for (index, cells) in table.enumerated() {
                lines.append(
                    zip(cells, widths).enumerated().map { column, pair in
                        let padding = String(repeating: " ", count: pair.1 - pair.0.count)
                        return column == 0 ? pair.0 + padding : padding + pair.0
                    }.joined(separator: "  "))
                if index == 0 { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
            }
            lines.append("")
        }
        for store in StoreSetup.all.map(\.name) {
            let overheads = report.results.filter { $0.store == store }.compactMap { row -> String? in
                guard let wall = row.ratioToUnobserved, let cpu = row.cpuRatioToUnobserved,
                    let workload = Workload(rawValue: row.workload), let unobserved = workload.unobservedWorkload
                else { return nil }
                return String(
                    format: "%@ × %@ %.3f (CPU %.3f)", workload.rawValue, unobserved.rawValue, wall, cpu)
            }
            guard !overheads.isEmpty else { continue }
            lines.append(
                "\(store): " + overheads.joined(separator: ", ")
                    + " (MetricsAndTracing with no backend; medians of paired runs, wall time and CPU time)")
        }
        for row in report.results where row.workload == Workload.fetchAll.rawValue {
            guard let peak = row.peakRSSBytes, let grdb = row.grdbPeakRSSBytes else { continue }
            lines.append(
                String(
                    format: "%@ fetch-all peak × GRDB's: %.2f (%.1f MiB against %.1f MiB)", row.store, peak / grdb,
                    peak / 1_048_576, grdb / 1_048_576))
        }
        if let binary = insert(of: "Binary", in: report), let inMemory = insert(of: "InMemory", in: report) {
            lines.append(
                String(
                    format: "Binary insert × InMemory insert: %.2f (what the file adds to the object graph)",
                    binary / inMemory))
        }
        return lines.joined(separator: "\n")
    }

    /// The median time of `store`'s insert workload in `report`, when it ran.
    private static func insert(of store: String, in report: BenchReport) -> Double? {
        report.results.first { $0.store == store && $0.workload == Workload.insert.rawValue }?.medianMs
    }

    /// The median time per object the workload handles, in microseconds; "–" when it has none.
    private static func perObject(_ row: BenchResult, in report: BenchReport) -> String {
        guard let count = Workload(rawValue: row.workload)?.objectCount(in: report), count > 0 else { return "–" }
        return String(format: "%.2f", row.medianMs * 1_000 / Double(count))
    }

    private static let scaledNote = " (10 000 scaled to N: 10 000 × N / 100 000)"

    private static func format(_ milliseconds: Double) -> String {
        milliseconds >= 100 ? String(format: "%.0f", milliseconds) : String(format: "%.2f", milliseconds)
    }
}
