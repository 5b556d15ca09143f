import CStrataXML2
import Foundation
import Strata

/// Owns one libxml2 `xmlDoc *`, parsed from memory with network access and entity
/// expansion turned off; frees it in `deinit`.
///
/// The tree is read once, into a ``SourceElement`` value, by ``rootElement()``; no libxml2
/// pointer leaves this class. libxml2 reports errors on the parser context, which lives only
/// inside `init`. Ownership, from the libxml2 documentation of `xmlCtxtReadMemory`
/// (<https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html#xmlCtxtReadMemory>):
/// it returns "the resulting document tree", which the caller frees with `xmlFreeDoc`; the
/// context made by `xmlNewParserCtxt` is freed with `xmlFreeParserCtxt`.
final class ParsedXMLDocument {
    private let handle: xmlDocPtr
    private let path: String

    /// The options every parse uses: no network (`XML_PARSE_NONET`), no messages on stderr
    /// (`XML_PARSE_NOERROR`, `XML_PARSE_NOWARNING`), line numbers above 65535
    /// (`XML_PARSE_BIG_LINES`). `XML_PARSE_NOENT` and `XML_PARSE_DTDLOAD` are left out, so
    /// entities are neither substituted nor loaded.
    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_BIG_LINES.rawValue)

    /// Runs `xmlInitParser` once per process, before the first parse: libxml2 2.9 asks for
    /// this when it is used from several threads.
    private static let initialized: Void = xmlInitParser()

    /// Parses `data`, the contents of the file at `path`. Calls `xmlCtxtReadMemory`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` and the line libxml2
    ///   reports when the data is not well-formed XML; `ModelError/Code/unreadableFile` when
    ///   it is larger than libxml2 takes in one buffer (2 GiB).
    init(data: Data, path: String) throws(ModelError) {
        Self.initialized
        self.path = path
        guard data.count <= Int(Int32.max) else {
            throw ModelError(
                code: .unreadableFile, message: "'\(path)' is too large (\(data.count) bytes) to be a model file.",
                filePath: path)
        }
        guard let context = xmlNewParserCtxt() else {
            throw ModelError(
                code: .malformedFile, message: "Could not start an XML parser for '\(path)' (out of memory).",
                filePath: path)
        }
        defer { xmlFreeParserCtxt(context) }
        let document = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> xmlDocPtr? in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), path, nil, Self.options)
        }
        guard let document, context.pointee.wellFormed != 0 else {
            let error = Self.error(from: context, path: path)
            if let document { xmlFreeDoc(document) }
            throw error
        }
        handle = document
    }

    deinit { xmlFreeDoc(handle) }

    /// The document's root element with everything below it.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the document
    ///   has no root element or uses an entity reference (`&name;`), which is never expanded.
    func rootElement() throws(ModelError) -> SourceElement {
        guard let root = xmlDocGetRootElement(handle) else {
            throw ModelError(
                code: .malformedFile, message: "'\(path)' has no root element.", filePath: path, line: 1)
        }
        return try element(root)
    }

    private func element(_ node: xmlNodePtr) throws(ModelError) -> SourceElement {
        let name = Self.string(node.pointee.name)
        let line = Int(xmlGetLineNo(node))
        var attributes: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let attributeName = Self.string(current.pointee.name)
            attributes.append(
                (attributeName, try text(of: current.pointee.children, in: "\(attributeName)=", line: line)))
            attribute = current.pointee.next
        }
        var children: [SourceElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(try element(current)) }
            child = current.pointee.next
        }
        let text = try text(of: node.pointee.children, in: "<\(name)>", line: line)
        return SourceElement(name: name, attributes: attributes, children: children, text: text, line: line)
    }

    /// Concatenates the text and CDATA nodes in the sibling list starting at `first`;
    /// refuses entity references, which are left unexpanded on purpose.
    private func text(of first: xmlNodePtr?, in place: String, line: Int) throws(ModelError) -> String {
        var result = ""
        var node = first
        while let current = node {
            let type = current.pointee.type
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
                result += Self.string(current.pointee.content)
            } else if type == XML_ENTITY_REF_NODE {
                throw ModelError(
                    code: .malformedFile,
                    message:
                        "'\(path)', line \(line): \(place) uses the entity reference '&\(Self.string(current.pointee.name));'; Strata does not expand entities in model files.",
                    filePath: path, line: line)
            }
            node = current.pointee.next
        }
        return result
    }

    private static func string(_ characters: UnsafePointer<xmlChar>?) -> String {
        guard let characters else { return "" }
        return String(cString: characters)
    }

    /// The error libxml2 recorded on `context` (`xmlCtxtGetLastError`), as a `ModelError`.
    private static func error(from context: xmlParserCtxtPtr, path: String) -> ModelError {
        guard let last = xmlCtxtGetLastError(context), last.pointee.code != 0 else {
            return ModelError(code: .malformedFile, message: "'\(path)' is not well-formed XML.", filePath: path)
        }
        let reason =
            last.pointee.message.map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "error \(last.pointee.code)"
        let line = Int(last.pointee.line)
        return ModelError(
            code: .malformedFile, message: "'\(path)', line \(line): not well-formed XML: \(reason).", filePath: path,
            line: line)
    }
}

@available(*, unavailable) extension ParsedXMLDocument: Sendable {}
