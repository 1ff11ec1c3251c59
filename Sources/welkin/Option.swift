// Typed options: each option is declared once, as a static value naming its spelling, value type,
// default and help (`Options.time`, `Options.Compare.threshold`); commands list those declarations,
// and their bodies read values through them (`try args[Options.time]`), so a misspelt option is a
// compile error. `welkin help`, the man page and the completion scripts read the same declarations.

/// An option as help, the man page and the completions list it: its spelling, placeholder and help.
struct OptionSpec: Sendable, CommandOption {
    var name: String          // "--time"
    var short: String? = nil  // "-o"
    var value: String? = nil  // placeholder for the value, nil for a flag
    var help: String

    var spec: OptionSpec { self }
}

/// Anything a command lists among its options: a typed `Option`, a `Flag`, or a bare spec.
protocol CommandOption: Sendable {
    var spec: OptionSpec { get }
}

/// Why an option's text is not a value: the words after "expects" in the usage error
/// `--NAME expects EXPECTED, got 'TEXT'`, and the part of the text at fault when it is a list.
struct OptionValueError: Error {
    var expected: String
    var got: String? = nil
}

/// An option that takes a value, converted to `Value` when read. An optional `Value` reads nil when
/// the option is absent; any other reads its default.
struct Option<Value: Sendable>: CommandOption {
    let spec: OptionSpec
    let defaultValue: Value
    /// Text to value; throws `OptionValueError` saying what it expects.
    let convert: @Sendable (String) throws -> Value

    var name: String { spec.name }

    init(_ name: String, short: String? = nil, value: String, help: String, default defaultValue: Value,
         convert: @escaping @Sendable (String) throws -> Value) {
        spec = OptionSpec(name: name, short: short, value: value, help: help)
        self.defaultValue = defaultValue
        self.convert = convert
    }

    /// An option without a default: nil when absent.
    init<Wrapped>(_ name: String, short: String? = nil, value: String, help: String,
                  convert: @escaping @Sendable (String) throws -> Wrapped) where Value == Wrapped? {
        self.init(name, short: short, value: value, help: help, default: nil, convert: { try convert($0) })
    }

    /// The same option (spelling, type and conversion) with another placeholder or help, for a
    /// command that says what it means there (`--size` of a frame, of a scene, of a cube face).
    func with(value: String? = nil, help: String) -> Option {
        Option(spec.name, short: spec.short, value: value ?? spec.value!, help: help, default: defaultValue, convert: convert)
    }
}

/// An option without a value: true when given.
struct Flag: CommandOption {
    let spec: OptionSpec

    var name: String { spec.name }

    init(_ name: String, help: String) {
        spec = OptionSpec(name: name, help: help)
    }

    /// The same flag with the help a command gives it.
    func with(help: String) -> Flag { Flag(spec.name, help: help) }
}

/// The common conversions, each with the words its usage error uses.
enum OptionConversion {
    /// Free text: a path, a date, a list read later.
    static let text: @Sendable (String) throws -> String = { $0 }

    /// A finite number accepted by `isValid`, else "expects EXPECTED".
    static func number(_ expected: String, where isValid: @escaping @Sendable (Double) -> Bool = { _ in true })
        -> @Sendable (String) throws -> Double {
        { text in
            guard let v = Double(text), v.isFinite, isValid(v) else { throw OptionValueError(expected: expected) }
            return v
        }
    }

    /// A whole number accepted by `isValid`, else "expects EXPECTED".
    static func wholeNumber(_ expected: String, where isValid: @escaping @Sendable (Int) -> Bool = { _ in true })
        -> @Sendable (String) throws -> Int {
        { text in
            guard let n = Int(text), isValid(n) else { throw OptionValueError(expected: expected) }
            return n
        }
    }

    /// One of an enumeration's raw values, else "expects a, b or c".
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ type: E.Type) -> @Sendable (String) throws -> E
        where E.RawValue == String {
        { text in
            guard let value = E(rawValue: text) else { throw OptionValueError(expected: choiceList(E.allCases.map(\.rawValue))) }
            return value
        }
    }

    /// "a or b", "a, b or c".
    static func choiceList(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
