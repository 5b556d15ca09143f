import CBenchXML2
import Foundation

/// The XML floor: Core Data's XML layout, as the XML store writes it, through libxml2's text
/// writer and read back with its text reader; attribute values in the store's text forms.
struct RawXMLFormat: WholeFileFormat {
    let fileName = "items.xml"

    func write(_ records: [ItemRecord], to url: URL) throws {
        let temporary = url.path + ".tmp"
        guard let writer = xmlNewTextWriterFilename(temporary, 0) else {
            throw FloorError(description: "cannot create \(temporary)")
        }
        func check(_ status: Int32) throws {
            guard status >= 0 else { throw FloorError(description: "cannot write \(temporary)") }
        }
        func element(_ name: String, _ attributes: [(String, String)], text: String?) throws {
            try check(xmlTextWriterWriteRaw(writer, "\n        "))
            try check(xmlTextWriterStartElement(writer, name))
            for (key, value) in attributes { try check(xmlTextWriterWriteAttribute(writer, key, value)) }
            if let text { try check(xmlTextWriterWriteString(writer, text)) }
            try check(xmlTextWriterFullEndElement(writer))
        }
        do {
            defer { xmlFreeTextWriter(writer) }
            try check(xmlTextWriterStartDocument(writer, "1.0", nil, "yes"))
            try check(xmlTextWriterWriteDTD(writer, "database", nil, "file:///System/Library/DTDs/CoreData.dtd", nil))
            try check(xmlTextWriterStartElement(writer, "database"))
            for record in records {
                try check(xmlTextWriterWriteRaw(writer, "\n    "))
                try check(xmlTextWriterStartElement(writer, "object"))
                try check(xmlTextWriterWriteAttribute(writer, "type", "ITEM"))
                try check(xmlTextWriterWriteAttribute(writer, "id", "z\(record.id)"))
                for (name, type, text) in Self.attributes(of: record) {
                    try element("attribute", [("name", name), ("type", type)], text: text)
                }
                let children = record.children.map { "z\($0)" }.joined(separator: " ")
                try element(
                    "relationship",
                    [("name", "children"), ("type", "0/0"), ("destination", "ITEM")]
                        + (children.isEmpty ? [] : [("idrefs", children)]), text: nil)
                let parent = record.parent.map { [("idrefs", "z\($0)")] } ?? []
                try element(
                    "relationship", [("name", "parent"), ("type", "1/1"), ("destination", "ITEM")] + parent, text: nil)
                try check(xmlTextWriterWriteRaw(writer, "\n    "))
                try check(xmlTextWriterFullEndElement(writer))
            }
            try check(xmlTextWriterFullEndElement(writer))
            try check(xmlTextWriterEndDocument(writer))
        }
        let descriptor = open(temporary, O_RDONLY)
        defer { close(descriptor) }
        guard descriptor >= 0, fsync(descriptor) == 0, rename(temporary, url.path) == 0 else {
            throw FloorError(description: "cannot save \(url.path)")
        }
    }

    static func attributes(of record: ItemRecord) -> [(String, String, String)] {
        [
            ("blob", "binary", Data(record.blob).base64EncodedString()), ("flag", "bool", record.flag ? "1" : "0"),
            ("name", "string", record.name), ("number", "int64", "\(record.number)"),
            ("score", "double", "\(record.score)"), ("stamp", "date", "\(record.stamp)"),
        ]
    }

    func read(_ url: URL) throws -> [ItemRecord] {
        guard let reader = xmlReaderForFile(url.path, nil, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue))
        else { throw FloorError(description: "cannot read \(url.path)") }
        defer { xmlFreeTextReader(reader) }
        func attribute(_ name: String) -> String? {
            guard xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
            defer { xmlTextReaderMoveToElement(reader) }
            return xmlTextReaderConstValue(reader).map { String(cString: $0) }
        }
        func reference(_ text: Substring) -> Int64 { Int64(text.dropFirst()) ?? 0 }
        var records: [ItemRecord] = []
        var current = ItemRecord(
            id: 0, number: 0, name: "", score: 0, stamp: 0, flag: false, blob: [], parent: nil, children: [])
        var property: String?
        while true {
            let status = xmlTextReaderRead(reader)
            guard status == 1 else {
                if status < 0 { throw FloorError(description: "\(url.path) is not well-formed") }
                break
            }
            let name = xmlTextReaderConstName(reader).map { String(cString: $0) } ?? ""
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                if name == "object" {
                    current.id = reference((attribute("id") ?? "")[...])
                    current.children = []
                    current.parent = nil
                } else if name == "attribute" {
                    property = attribute("name")
                } else if name == "relationship", let idrefs = attribute("idrefs") {
                    let members = idrefs.split(separator: " ").map(reference)
                    if attribute("name") == "children" {
                        current.children = members
                    } else {
                        current.parent = members.first
                    }
                }
            case Int32(XML_READER_TYPE_TEXT.rawValue):
                let text = xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
                switch property {
                case "blob": current.blob = [UInt8](Data(base64Encoded: text) ?? Data())
                case "flag": current.flag = text == "1"
                case "name": current.name = text
                case "number": current.number = Int64(text) ?? 0
                case "score": current.score = Double(text) ?? 0
                case "stamp": current.stamp = Double(text) ?? 0
                default: break
                }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                if name == "object" { records.append(current) } else if name == "attribute" { property = nil }
            default: break
            }
        }
        return records
    }
}
