import Foundation
import Strata

extension XcodeVersionedModel {
    /// The version named by the `.xccurrentversion` file at `url`: an XML property list whose
    /// dictionary maps `_XCCurrentVersionName` to a folder name such as `Model 2.xcdatamodel`.
    /// The `.xcdatamodel` suffix is removed.
    ///
    /// - Throws: `ModelError/Code/unreadableFile` or `ModelError/Code/malformedFile` (with
    ///   the line) when the file cannot be read or is not such a property list.
    static func currentVersionName(in url: URL) throws(ModelError) -> String {
        let root = try XcodeModel.readXML(at: url)
        func malformed(_ element: SourceElement, _ reason: String) -> ModelError {
            ModelError(
                code: .malformedFile, message: "'\(url.path)', line \(element.line): \(reason)", filePath: url.path,
                line: element.line)
        }
        guard root.name == "plist", let dictionary = root.children.first, dictionary.name == "dict" else {
            throw malformed(root, "expected a property list (<plist><dict>…), found <\(root.name)>.")
        }
        let items = dictionary.children
        guard let index = items.firstIndex(where: { $0.name == "key" && $0.text == "_XCCurrentVersionName" }) else {
            throw malformed(dictionary, "the dictionary has no _XCCurrentVersionName key.")
        }
        guard index + 1 < items.count, items[index + 1].name == "string" else {
            throw malformed(items[index], "_XCCurrentVersionName is not followed by a <string>.")
        }
        let folder = items[index + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
        let suffix = ".xcdatamodel"
        return folder.hasSuffix(suffix) ? String(folder.dropLast(suffix.count)) : folder
    }
}
