import CStrataXML2
import Foundation
import Strata

/// A forward-only pull reader over one XML file: libxml2's `xmlTextReader`, which parses the
/// file in small chunks and never builds a tree of the whole document.
///
/// Every failure becomes a `StoreError`: `StoreError/Code/io` when the file cannot be
/// opened, `StoreError/Code/corrupt` naming the file, line and column when the XML is not
/// well-formed. The parse loads no DTD, reaches no network and substitutes no entities; an entity
/// reference in the document is refused.
final class XMLTextReader {
    /// One step of the document.
    enum Node: Equatable {
        /// An element opens; `isEmpty` for `<name/>`, which has no matching end.
        case start(name: String, isEmpty: Bool)
        /// An element closes.
        case end(name: String)
        /// Character data (text, CDATA or whitespace).
        case text(String)
        /// The document is over.
        case endOfDocument
    }

    /// The file, as messages name it.
    let path: String
    private let handle: xmlTextReaderPtr
    private let errors: ErrorRecorder

    /// The parser options: no network, no messages on stderr, line numbers above 65535, and
    /// text nodes above libxml2's default 10 MB limit (`XML_PARSE_HUGE`), which a large binary
    /// value needs. Entity substitution and DTD loading stay off, so no entity can grow the
    /// document.
    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_HUGE.rawValue)

    /// Opens a reader on the file descriptor `descriptor`, which stays the caller's to close.
    init(descriptor: Int32, path: String) throws {
        LibXML2.initialize()
        self.path = path
        guard let handle = xmlReaderForFd(descriptor, path, nil, Self.options) else {
            throw StoreError(code: .io, message: "Could not start reading '\(path)' as XML (out of memory).")
        }
        self.handle = handle
        errors = ErrorRecorder()
        xmlTextReaderSetStructuredErrorHandler(
            handle,
            { context, error in
                guard let context, let error else { return }
                Unmanaged<ErrorRecorder>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
            }, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit { xmlFreeTextReader(handle) }

    /// Where the reader is, for messages: the line of the node it is on, or, before the first
    /// node, the line and column the parser has reached.
    var position: String {
        if let line { return "line \(line)" }
        return "line \(xmlTextReaderGetParserLineNumber(handle)), column \(xmlTextReaderGetParserColumnNumber(handle))"
    }

    /// The line of the node the reader is on; `nil` before the first node.
    var line: Int? {
        xmlTextReaderCurrentNode(handle).map { Int(xmlGetLineNo($0)) }
    }

    /// A `StoreError/Code/corrupt` error naming the file, the position and `problem`.
    func corrupt(_ problem: String) -> StoreError {
        StoreError(code: .corrupt, message: "'\(path)', \(position): \(problem)")
    }

    /// The next node that matters: comments, processing instructions and the document type
    /// are passed over.
    func next() throws -> Node {
        while true {
            let status = xmlTextReaderRead(handle)
            if status == 0 { return .endOfDocument }
            guard status == 1 else { throw malformed() }
            switch xmlTextReaderNodeType(handle) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                return .start(
                    name: string(xmlTextReaderConstName(handle)), isEmpty: xmlTextReaderIsEmptyElement(handle) == 1)
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                return .end(name: string(xmlTextReaderConstName(handle)))
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                return .text(string(xmlTextReaderConstValue(handle)))
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                throw corrupt("the entity reference '&\(string(xmlTextReaderConstName(handle)));' is not expanded.")
            default: continue
            }
        }
    }

    /// The value of the attribute `name` of the element the reader is on.
    func attribute(_ name: String) -> String? {
        guard xmlTextReaderMoveToAttribute(handle, name) == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(handle) }
        return string(xmlTextReaderConstValue(handle))
    }

    /// The error for a failed read: the first one libxml2 reported, with its line and column.
    private func malformed() -> StoreError {
        guard let first = errors.first else { return corrupt("the file is not well-formed XML.") }
        return StoreError(
            code: .corrupt,
            message: "'\(path)', line \(first.line), column \(first.column): not well-formed XML: \(first.message).")
    }

    private func string(_ characters: UnsafePointer<xmlChar>?) -> String {
        characters.map { String(cString: $0) } ?? ""
    }
}

@available(*, unavailable) extension XMLTextReader: Sendable {}

/// Keeps the first error libxml2 reports while a reader parses; libxml2 calls ``record(_:)``
/// from the reading thread, inside `xmlTextReaderRead`.
private final class ErrorRecorder {
    struct Report {
        var line: Int
        var column: Int
        var message: String
    }

    private(set) var first: Report?

    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message =
            error.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "error \(error.code)"
        first = Report(line: Int(error.line), column: Int(error.int2), message: message)
    }
}
