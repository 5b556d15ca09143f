import Foundation

/// The examples README shows, and the source text of the examples this test target compiles:
/// a snippet named `name` is the text between `// snippet: name` and `// end snippet` in a
/// source file of this folder, without its common indentation, and README shows it in the
/// fenced code block after `<!-- snippet: name -->`.
enum ReadmeSnippets {
    /// The folder of this test target's sources.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package's README.
    static let readme = sourceFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// Every snippet in this folder's Swift files, by name.
    static func compiled() throws -> [String: String] {
        var snippets: [String: String] = [:]
        let files = try FileManager.default.contentsOfDirectory(at: sourceFolder, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var name: String?
            var body: [String] = []
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let current = name {
                    if trimmed == "// end snippet" {
                        snippets[current] = dedented(body)
                        name = nil
                    } else {
                        body.append(line)
                    }
                } else if trimmed.hasPrefix("// snippet: ") {
                    name = String(trimmed.dropFirst("// snippet: ".count))
                    body = []
                }
            }
        }
        return snippets
    }

    /// Every snippet README shows, by name: the body of the fenced block after each marker.
    static func shown() throws -> [String: String] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        var snippets: [String: String] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard line.hasPrefix("<!-- snippet: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
            guard index < lines.count, lines[index].hasPrefix("```") else { continue }
            index += 1
            var body: [String] = []
            while index < lines.count, lines[index] != "```" {
                body.append(lines[index])
                index += 1
            }
            snippets[name] = body.joined(separator: "\n")
        }
        return snippets
    }

    /// `lines` joined, less the indentation they all share (blank lines aside).
    private static func dedented(_ lines: [String]) -> String {
        let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return lines.map { String($0.dropFirst(min(common, $0.prefix { $0 == " " }.count))) }
            .joined(separator: "\n")
    }
}
