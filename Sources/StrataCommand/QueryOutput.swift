import ArgumentParser
import Foundation

/// How `strata query` prints its rows.
enum QueryFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned columns under a header, for reading; widths come from the first rows.
    case table
    /// One JSON array of objects.
    case json
    /// Comma-separated values with a header line (RFC 4180 quoting).
    case csv
    /// One JSON object per line.
    case ndjson
}

/// Writes rows to standard output as they come, in one ``QueryFormat``.
final class QueryOutput {
    private let format: QueryFormat
    private let columns: [String]
    /// Table rows held until ``tableSample`` of them give the column widths.
    private var pending: [[String]] = []
    private var widths: [Int]?
    private var written = 0

    /// How many rows a table holds back to measure its columns.
    static let tableSample = 200
    /// The widest a table's column grows; longer values are cut with an ellipsis.
    static let widestColumn = 60

    init(format: QueryFormat, columns: [String]) {
        self.format = format
        self.columns = columns
        switch format {
        case .json: emit("[")
        case .csv: emit(columns.map(Self.csvField).joined(separator: ","))
        case .table, .ndjson: break
        }
    }

    /// Writes one row, its cells in the order of the columns.
    func write(_ cells: [QueryCell]) {
        switch format {
        case .table:
            let texts = cells.map { Self.cut($0.text(forTable: true)) }
            if widths == nil {
                pending.append(texts)
                if pending.count >= Self.tableSample { flushTable() }
            } else {
                emitTableRow(texts)
            }
        case .csv: emit(cells.map { Self.csvField($0.text(forTable: false)) }.joined(separator: ","))
        case .json: print((written == 0 ? "  " : ",\n  ") + jsonObject(cells), terminator: "")
        case .ndjson: emit(jsonObject(cells))
        }
        written += 1
    }

    /// Ends the output: a table's held rows and its row count, a JSON array's bracket.
    func finish() {
        switch format {
        case .table:
            flushTable()
            emit("(\(written) \(written == 1 ? "row" : "rows"))")
        case .json: emit(written == 0 ? "]" : "\n]")
        case .csv, .ndjson: break
        }
    }

    private func flushTable() {
        guard widths == nil else { return }
        var measured = columns.map(\.count)
        for row in pending {
            for (index, text) in row.enumerated() { measured[index] = max(measured[index], text.count) }
        }
        widths = measured
        emitTableRow(columns)
        emit(measured.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        pending.forEach(emitTableRow)
        pending = []
    }

    private func emitTableRow(_ texts: [String]) {
        let widths = widths ?? []
        let padded = texts.enumerated().map { index, text in
            index == texts.count - 1
                ? text : text.padding(toLength: max(widths[index], text.count), withPad: " ", startingAt: 0)
        }
        emit(padded.joined(separator: "  "))
    }

    private func jsonObject(_ cells: [QueryCell]) -> String {
        "{" + zip(columns, cells).map { JSONText.string($0) + ":" + $1.json }.joined(separator: ",") + "}"
    }

    private func emit(_ line: String) { print(line) }

    private static func cut(_ text: String) -> String {
        text.count > widestColumn ? text.prefix(widestColumn - 1) + "…" : text
    }

    /// `text` as a CSV field: quoted, with quotes doubled, when it holds a comma, quote or line break.
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
