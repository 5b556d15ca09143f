import Foundation
import Strata

extension ModelFileReader {
    /// The attribute described by an `<attribute>` element.
    ///
    /// An absent `optional` means *not* optional. `defaultValueString`, `minValueString` and
    /// `maxValueString` are parsed as the attribute's type (see
    /// ``value(_:as:from:of:in:)``); a Date takes its default and bounds from
    /// `defaultDateTimeInterval`, `minDateTimeInterval` and `maxDateTimeInterval` (seconds since
    /// 2001-01-01). For String and Binary attributes the bounds are lengths.
    ///
    /// A `Composite` attribute takes its elements from the model-level `<composite>` its
    /// `composite` XML attribute names.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for an unknown type, a value that does not
    ///   parse, or a composite that is missing or contains itself.
    mutating func attribute(_ element: SourceElement, in context: String) throws(ModelError) -> AttributeDescription {
        let name = try required("name", of: element, in: context)
        let typeName = try required("attributeType", of: element, in: context)
        if typeName == "Composite" {
            return try compositeAttribute(element, named: name, in: context)
        }
        guard let type = AttributeType(modelFileName: typeName) else {
            let known = AttributeType.allCases.map(\.modelFileName).joined(separator: ", ")
            throw malformed(
                element, in: context, "has attributeType \"\(typeName)\", which is not one of: \(known).")
        }
        var used: Set<String> = [
            "name", "attributeType", "optional", "transient", "defaultValueString", "defaultDateTimeInterval",
            "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval",
            "regularExpressionString", "preserveAfterDeletion", "allowsExternalBinaryDataStorage", "indexed",
            "valueTransformerName", "derived", "elementID", "versionHashModifier", "spotlightIndexingEnabled",
        ]
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: try flag("optional", of: element, in: context))
        attribute.isTransient = try flag("transient", of: element, in: context)
        if let text = element.attribute("defaultValueString") {
            attribute.defaultValue = try value(text, as: type, from: "defaultValueString", of: element, in: context)
        }
        if let date = try date("defaultDateTimeInterval", of: element, type: type, in: context) {
            attribute.defaultValue = date
        }
        try readBounds(of: element, type: type, into: &attribute, in: context)
        attribute.regularExpression = element.attribute("regularExpressionString")
        attribute.preservesValueInHistoryOnDeletion = try flag("preserveAfterDeletion", of: element, in: context)
        attribute.allowsExternalBinaryDataStorage = try flag(
            "allowsExternalBinaryDataStorage", of: element, in: context)
        attribute.isIndexed = try flag("indexed", of: element, in: context)
        attribute.isIndexedForSearch = try flag("spotlightIndexingEnabled", of: element, in: context)
        attribute.valueTransformerName = element.attribute("valueTransformerName")
        if try flag("derived", of: element, in: context) {
            attribute.derivationExpression = try required("derivationExpression", of: element, in: context)
            used.insert("derivationExpression")
        }
        attribute.renamingIdentifier = element.attribute("elementID")
        attribute.versionHashModifier = element.attribute("versionHashModifier")
        ignoreAttributes(of: element, except: used)
        attribute.userInfo = try propertyUserInfo(of: element, in: context)
        return attribute
    }

    /// The composite attribute `name` described by `element`, with the elements of the
    /// `<composite>` it names.
    private mutating func compositeAttribute(_ element: SourceElement, named name: String, in context: String)
        throws(ModelError) -> AttributeDescription
    {
        let compositeName = try required("composite", of: element, in: context)
        guard let definition = composites[compositeName] else {
            throw malformed(
                element, in: context, "names the composite '\(compositeName)', which the model does not declare.")
        }
        guard !compositesBeingRead.contains(compositeName) else {
            throw malformed(
                element, in: context,
                "names the composite '\(compositeName)', which contains itself through "
                    + (compositesBeingRead + [compositeName]).joined(separator: " → ") + ".")
        }
        compositesBeingRead.append(compositeName)
        defer { compositesBeingRead.removeLast() }
        var attribute = AttributeDescription(
            name: name, type: .composite, isOptional: try flag("optional", of: element, in: context))
        attribute.preservesValueInHistoryOnDeletion = try flag("preserveAfterDeletion", of: element, in: context)
        attribute.renamingIdentifier = element.attribute("elementID")
        attribute.versionHashModifier = element.attribute("versionHashModifier")
        ignoreAttributes(
            of: element,
            except: [
                "name", "attributeType", "composite", "optional", "preserveAfterDeletion", "elementID",
                "versionHashModifier",
            ])
        let elementContext = "composite '\(compositeName)'"
        ignoreAttributes(of: definition, except: ["name"])
        for child in definition.children {
            if child.name == "attribute" {
                attribute.elements.append(try self.attribute(child, in: elementContext))
            } else {
                ignore(child, inside: definition.name)
            }
        }
        attribute.userInfo = try propertyUserInfo(of: element, in: context)
        return attribute
    }

    /// Reads `minValueString`/`maxValueString` (values for numbers, lengths for String and
    /// Binary) and `minDateTimeInterval`/`maxDateTimeInterval` (for Date).
    private func readBounds(
        of element: SourceElement, type: AttributeType, into attribute: inout AttributeDescription, in context: String
    ) throws(ModelError) {
        for (key, isMinimum) in [("minValueString", true), ("maxValueString", false)] {
            guard let text = element.attribute(key) else { continue }
            if type.isNumeric {
                let bound = try value(text, as: type, from: key, of: element, in: context)
                if isMinimum { attribute.minValue = bound } else { attribute.maxValue = bound }
            } else if type == .string || type == .binary {
                guard let length = Int(text) else {
                    throw malformed(element, in: context, "has \(key)=\"\(text)\", which is not a length.")
                }
                if isMinimum { attribute.minLength = length } else { attribute.maxLength = length }
            } else {
                throw malformed(
                    element, in: context,
                    "has \(key), but bounds apply only to numeric, String and Binary attributes (Date uses minDateTimeInterval and maxDateTimeInterval)."
                )
            }
        }
        attribute.minValue = try date("minDateTimeInterval", of: element, type: type, in: context) ?? attribute.minValue
        attribute.maxValue = try date("maxDateTimeInterval", of: element, type: type, in: context) ?? attribute.maxValue
    }

    /// The date in the XML attribute `key` (seconds since 2001-01-01), or `nil` when absent.
    private func date(_ key: String, of element: SourceElement, type: AttributeType, in context: String)
        throws(ModelError) -> AttributeValue?
    {
        guard let text = element.attribute(key) else { return nil }
        guard type == .date else {
            throw malformed(element, in: context, "has \(key), which applies only to Date attributes.")
        }
        guard let seconds = Double(text) else {
            throw malformed(element, in: context, "has \(key)=\"\(text)\", which is not a number of seconds.")
        }
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
    }
}
