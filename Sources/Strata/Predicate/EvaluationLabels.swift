// Short renderings of expressions, comparisons and values for error messages.

extension FetchExpression {
    /// A short rendering in format-string style for error messages, such as `author.name`,
    /// `$x.price` or `lowercase(name)`.
    var evaluationLabel: String {
        switch self {
        case .evaluatedObject: "SELF"
        case .keyPath(let path): path
        case .keyPathOn(let base, let path): "\(base.evaluationLabel).\(path)"
        case .constant(let value): value.evaluationLabel
        case .variable(let name): name.hasPrefix("$") ? name : "$\(name)"
        case .aggregate(let elements): "{" + elements.map(\.evaluationLabel).joined(separator: ", ") + "}"
        case .function(let name, let arguments):
            "\(name)(" + arguments.map(\.evaluationLabel).joined(separator: ", ") + ")"
        case .subquery(let collection, let variable, _):
            "SUBQUERY(\(collection.evaluationLabel), \(FetchExpression.variable(variable).evaluationLabel), …)"
        case .conditional(_, let then, let otherwise):
            "TERNARY(…, \(then.evaluationLabel), \(otherwise.evaluationLabel))"
        }
    }
}

extension ComparisonPredicate {
    /// A short rendering in format-string style for error messages, such as
    /// `ANY tags.name ==[c] "x"`.
    var evaluationLabel: String {
        var words: [String] = []
        switch modifier {
        case .direct: break
        case .any: words.append("ANY")
        case .all: words.append("ALL")
        }
        words.append(left.evaluationLabel)
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        words.append(self.operator.rawValue + (flags.isEmpty ? "" : "[\(flags)]"))
        words.append(right.evaluationLabel)
        return words.joined(separator: " ")
    }
}

extension AttributeValue {
    /// The value as a predicate constant for error messages, such as `"abc"`, `3` or `nil`.
    var evaluationLabel: String {
        switch self {
        case .null: "nil"
        case .integer16(let v): "\(v)"
        case .integer32(let v): "\(v)"
        case .integer64(let v): "\(v)"
        case .decimal(let v): "\(v)"
        case .double(let v): "\(v)"
        case .float(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .boolean(let v): v ? "YES" : "NO"
        case .date(let v): "CAST(\(v.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .binary(let v): "<\(v.count) bytes>"
        case .uuid(let v): v.uuidString
        case .uri(let v): v.absoluteString
        case .objectID(let v): v.description
        }
    }
}

extension AttributeValue {
    /// Words for messages, such as "null" or "a value of type String".
    var kindDescription: String {
        guard let type = attributeType else { return "null" }
        return "a value of type \(type.modelFileName)"
    }
}
