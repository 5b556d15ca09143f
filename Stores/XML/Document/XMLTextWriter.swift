import CStrataXML2
import Foundation
import Strata

/// A streaming XML writer into one file: libxml2's `xmlTextWriter`, which escapes text and
/// attribute values and writes as it goes. Indentation is written explicitly with
/// ``newline(depth:)`` so that the layout is exactly the one Core Data writes.
///
/// Every libxml2 call that fails becomes a `StoreError/Code/io` error naming the file and
/// what libxml2 reported first ("File too large"). While the writer lives, libxml2's reports on its
/// thread go to the writer rather than to standard error.
final class XMLTextWriter {
    private let handle: xmlTextWriterPtr
    private let path: String
    private let reports = Reports()
    /// The thread's handler of libxml2's reports before this writer, put back when it ends.
    private let previousHandler: (function: xmlStructuredErrorFunc?, context: UnsafeMutableRawPointer?)

    /// Creates (or truncates) the file at `url` and starts writing it.
    init(url: URL) throws {
        path = url.path
        LibXML2.initialize()
        previousHandler = (__xmlStructuredError().pointee, __xmlStructuredErrorContext().pointee)
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(reports).toOpaque()) { context, error in
            guard let context, let error, let message = error.pointee.message else { return }
            let reports = Unmanaged<Reports>.fromOpaque(context).takeUnretainedValue()
            if reports.first == nil {
                reports.first = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        errno = 0
        guard let handle = xmlNewTextWriterFilename(url.path, 0) else {
            let reason = errno == 0 ? reports.first ?? "libxml2 gave no reason" : String(cString: strerror(errno))
            xmlSetStructuredErrorFunc(previousHandler.context, previousHandler.function)
            throw StoreError(code: .io, message: "Could not create '\(url.path)' to write XML into: \(reason).")
        }
        self.handle = handle
    }

    deinit {
        xmlFreeTextWriter(handle)
        xmlSetStructuredErrorFunc(previousHandler.context, previousHandler.function)
    }

    /// Writes the XML declaration `<?xml version="1.0" standalone="yes"?>` and a line break.
    func startDocument() throws {
        try check(xmlTextWriterStartDocument(handle, "1.0", nil, "yes"), "the XML declaration")
    }

    /// Writes `<!DOCTYPE root SYSTEM "systemID">`.
    func documentType(root: String, systemID: String) throws {
        try check(xmlTextWriterWriteDTD(handle, root, nil, systemID, nil), "the document type")
    }

    /// Opens the element `name`.
    func start(_ name: String) throws {
        try check(xmlTextWriterStartElement(handle, name), "<\(name)>")
    }

    /// Adds the attribute `name="value"` to the element just opened.
    func attribute(_ name: String, _ value: String) throws {
        try check(xmlTextWriterWriteAttribute(handle, name, value), "the attribute \(name)")
    }

    /// Writes `text`, escaped, inside the open element.
    ///
    /// - Throws: `StoreError/Code/unsupported` when `text` holds a character XML 1.0 cannot
    ///   hold (values that may are encoded before they get here).
    func text(_ text: String) throws {
        guard XMLStoreFormat.canHold(text) else {
            throw StoreError(
                code: .unsupported,
                message: "Could not write '\(path)': the text \(text.debugDescription.prefix(60)) holds a character "
                    + "an XML document cannot hold.")
        }
        try check(xmlTextWriterWriteString(handle, text), "text")
    }

    /// Closes the open element with an end tag, even when it is empty (`<a></a>`, as Core Data writes).
    func end() throws {
        try check(xmlTextWriterFullEndElement(handle), "an end tag")
    }

    /// Writes an element holding only `text`: `<name>text</name>`.
    func element(_ name: String, text content: String) throws {
        try start(name)
        try text(content)
        try end()
    }

    /// Starts a new line indented by `depth` steps of four spaces.
    func newline(depth: Int) throws {
        let indent = depth < Self.lineBreaks.count ? Self.lineBreaks[depth] : Self.lineBreak(depth)
        try check(xmlTextWriterWriteRaw(handle, indent), "a line break")
    }

    /// A line break and the indentation of each depth the store writes.
    private static let lineBreaks = (0..<6).map(lineBreak)

    private static func lineBreak(_ depth: Int) -> String { "\n" + String(repeating: " ", count: 4 * depth) }

    /// Writes everything still buffered to the file.
    func flush() throws {
        try check(xmlTextWriterFlush(handle), "the end of the file")
    }

    private func check(_ status: Int32, _ what: @autoclosure () -> String) throws {
        guard status >= 0 else {
            let reason = reports.first.map { " (\($0))" } ?? ""
            throw StoreError(code: .io, message: "Could not write \(what()) to '\(path)'\(reason).")
        }
    }

    /// The first report libxml2 made while the writer wrote: the cause ("File too large"),
    /// before the consequences ("write error").
    private final class Reports {
        var first: String?
    }
}

@available(*, unavailable) extension XMLTextWriter: Sendable {}
