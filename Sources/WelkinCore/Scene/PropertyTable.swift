// Property tables: the one description of every key a scene file may hold.
//
// Each layer kind (and the top level, gradient stops, emitter cells, weather, …) declares a table
// of its properties: key, type, default, range or choices, unit, whether it animates or can be
// edited live, and a one-line description. Decoding reads values through the table (ranges and
// error sentences come from it); `welkin schema` (JSON Schema), the docs tables and the tweak panel
// are generated from it. Rules a table cannot say (counts that must match width × height, stops in
// order) stay as code next to the decoder that owns them.

/// What a property holds.
public indirect enum PropertyType: Sendable {
    /// A finite number in a closed range.
    case number(ClosedRange<Double>)
    /// A whole number in a closed range.
    case integer(ClosedRange<Int>)
    case bool
    /// Free text of at most `maximumLength` characters.
    case string(maximumLength: Int)
    /// One of a fixed set of strings.
    case choice([String])
    /// A SwiftUI colour name, `"#RGB"`, `"#RRGGBB"`, `"#RRGGBBAA"`, `[r, g, b(, a)]` in 0…1, or CSS's
    /// `rgb()`/`rgba()`/`hsl()`/`hsla()`.
    case color
    /// `[x, y]` in unit space (each coordinate in the range) or a SwiftUI UnitPoint name.
    case unitPoint(ClosedRange<Double>)
    /// `[x, y]`, each in the range.
    case pair(ClosedRange<Double>)
    /// `[low, high]` with low ≤ high, each in the range.
    case interval(ClosedRange<Double>)
    /// An ISO 8601 date and time with a UTC offset.
    case date
    /// A file path relative to the scene file; `what` names the kind of file ("a PNG image").
    case path(String)
    /// An array of `count` items of one type.
    case array(PropertyType, count: ClosedRange<Int>)
    /// An object described by another table.
    case object(PropertyTable)
    /// An object whose keys are free (names) and whose values have one type.
    case map(PropertyType, count: ClosedRange<Int>)
    /// Any one of several forms (a weather preset name or a weather object, …).
    case oneOf([PropertyType])
    /// A layer of any kind (an object with a `type`).
    case layer
    /// Any JSON at all, kept and ignored (`metadata`).
    case any
}

/// A property's default, as the docs and the schema show it.
public enum PropertyDefault: Sendable {
    case none
    case number(Double)
    case bool(Bool)
    case string(String)
    case color(RGBA)
    case point(SIMD2<Double>)
    case interval(ClosedRange<Double>)
    case emptyArray
    /// A default that depends on other values, in words ("half the shorter side of the frame").
    case described(String)
}

/// One key of a table.
public struct Property: Sendable {
    public var key: String
    public var type: PropertyType
    public var defaultValue: PropertyDefault
    /// The unit of a number ("s", "pt/s", "°", "rad"); nil for unit-free values.
    public var unit: String?
    /// Whether the value can change over time in a scene (keyframes, walks, schedules).
    public var animatable: Bool
    /// Whether the viewer's panel may edit it live (everything but structure: counts, files, seeds).
    public var live: Bool
    public var required: Bool
    /// One line for the docs, the schema's description and the panel's tooltip.
    public var summary: String
    /// How error sentences name the expected value ("a latitude in −90…90 degrees");
    /// nil: generated from the type and range.
    public var expected: String?
    /// The default as a JSON value when `defaultValue` can only describe it (a sky's palette): what
    /// the panel shows and edits a copy of.
    public var defaultJSON: JSONValue?
    /// Keys of the same object this one needs (`latitude` needs `date`), and keys it cannot go with
    /// (`sunElevation` and `date`): the decoder says so in its errors; the panel offers such a key
    /// only where it could be added.
    public var needs: [String] = []
    public var conflicts: [String] = []

    public init(_ key: String, _ type: PropertyType, default defaultValue: PropertyDefault = .none, required: Bool = false,
                unit: String? = nil, animatable: Bool = false, live: Bool = true,
                expected: String? = nil, _ summary: String) {
        self.key = key; self.type = type; self.defaultValue = defaultValue; self.unit = unit
        self.animatable = animatable; self.live = live; self.required = required
        self.summary = summary; self.expected = expected
    }

    /// A copy with `defaultJSON` set.
    public func withDefaultJSON(_ value: JSONValue) -> Property {
        var copy = self
        copy.defaultJSON = value
        return copy
    }

    /// A copy that needs `needs` and cannot go with `conflicts`.
    public func with(needs: [String] = [], conflicts: [String] = []) -> Property {
        var copy = self
        copy.needs = needs
        copy.conflicts = conflicts
        return copy
    }

    /// The phrase error sentences use for what this property expects.
    public var expectedPhrase: String { expected ?? type.expectedPhrase(unit: unit) }
}

/// The properties of one object in a scene file: a layer kind, the top level, an emitter cell, …
public struct PropertyTable: Sendable {
    /// The schema's `$defs` name and the docs' anchor: `emitterCell`, `linearGradient`, …
    public let name: String
    /// How people call it: "emitter cell".
    public let title: String
    public let summary: String
    public let properties: [Property]
    private let index: [String: Int]

    public init(_ name: String, title: String, _ summary: String, _ properties: [Property]) {
        self.name = name; self.title = title; self.summary = summary; self.properties = properties
        var index: [String: Int] = [:]
        for (i, p) in properties.enumerated() {
            precondition(index[p.key] == nil, "\(name) declares '\(p.key)' twice")
            index[p.key] = i
        }
        self.index = index
    }

    public var keys: [String] { properties.map(\.key) }

    public subscript(key: String) -> Property? { index[key].map { properties[$0] } }

    /// A copy with more properties appended (a layer kind's own keys after the common ones).
    public func adding(_ more: [Property], name: String, title: String, _ summary: String) -> PropertyTable {
        PropertyTable(name, title: title, summary, properties + more)
    }
}

extension PropertyType {
    /// "a number in 0…1 s", "true or false", … for error sentences.
    public func expectedPhrase(unit: String?) -> String {
        let suffix = ""
        switch self {
        case .number(let r):
            if r.lowerBound == 0 && r.upperBound == .greatestFiniteMagnitude { return "a number ≥ 0\(suffix)" }
            return "a number in \(format(r.lowerBound))…\(format(r.upperBound))\(suffix)"
        case .integer(let r): return "a whole number in \(r.lowerBound)…\(r.upperBound)\(suffix)"
        case .bool: return "true or false"
        case .string: return "a string"
        case .choice(let c): return "one of: \(c.joined(separator: ", "))"
        case .color: return "a colour"
        case .unitPoint: return "a unit point [x, y] or a name like \"top\""
        case .pair(let r): return "[x, y] with each in \(format(r.lowerBound))…\(format(r.upperBound))\(suffix)"
        case .interval(let r): return "[low, high] with each in \(format(r.lowerBound))…\(format(r.upperBound))\(suffix)"
        case .date: return "an ISO 8601 date with a UTC offset"
        case .path(let what): return "a path to \(what)"
        case .array: return "an array"
        case .object(let t): return "an object (\(t.title))"
        case .map: return "an object"
        case .oneOf(let types): return types.map { $0.expectedPhrase(unit: unit) }.joined(separator: " or ")
        case .layer: return "a layer object"
        case .any: return "any JSON value"
        }
    }
}

/// Every table of the scene format, for the schema, the docs and their tests.
public enum SceneFormat {
    /// The tables of every object a scene file can hold, in the order the docs list them.
    public static var tables: [PropertyTable] {
        [Scene.properties] + LayerKinds.all.map(\.properties) + supportingTables
    }

    /// Tables of nested objects that are not layers.
    public static var supportingTables: [PropertyTable] {
        [GradientStop.properties, Weather.properties, Weather.scheduleEntryProperties, Camera.properties,
         PrecipitationSettings.properties, SkyKeyframe.properties, Atmosphere.properties, EmitterCell.properties, Sway.properties, Orbit.properties,
         MeshBezierPoint.properties, MeshColorKeyframe.properties, MeshRandomWalk.properties,
         MeshRandomWalk.Range.properties, MeshSpring.properties, Shadow.properties, KeyframeTables.number,
         KeyframeTables.color, KeyframeTables.numberAnimation, KeyframeTables.colorAnimation, KeyframeTables.point,
         KeyframeTables.pointAnimation, KeyframeTables.scale, KeyframeTables.scaleAnimation, LayerTransform.properties, ShaderChannel.properties,
         ShaderBuffer.properties, ShaderCube.properties, LightPollution.properties, Fog.properties] + AnimationTables.tables
    }
}

/// Keys people write from habit (CSS, SwiftUI, other tools) that are spelt differently in a scene:
/// the one table "did you mean" reads for every object, before it looks for a near spelling. Each
/// entry lists candidate real keys; the first one the object's table has is suggested.
public enum KeySynonyms {
    public static let table: [String: [String]] = [
        // Text
        "fontSize": ["size"], "font-size": ["size"], "font_size": ["size"], "textSize": ["size"], "pointSize": ["size"],
        "fontWeight": ["weight"], "font-weight": ["weight"], "font_weight": ["weight"],
        "fontFamily": ["font"], "font-family": ["font"], "fontName": ["font"], "family": ["font"],
        "text": ["string"], "content": ["string"], "label": ["string"],
        "textAlign": ["alignment"], "text-align": ["alignment"], "align": ["alignment"],
        "lineHeight": ["lineSpacing"], "line-height": ["lineSpacing"], "leading": ["lineSpacing"],
        // Colours
        "color": ["colors", "background", "stops"], "colour": ["color", "colors", "background", "stops"],
        "colours": ["colors", "stops"], "colors": ["stops"],
        "textColor": ["color"], "fontColor": ["color"], "foregroundColor": ["color"], "fill": ["color"],
        "backgroundColor": ["background"], "background-color": ["background"],
        // Gradients (SwiftUI's argument names)
        "startPoint": ["start"], "endPoint": ["end"], "gradient": ["stops"],
        "offset": ["location"], "position": ["location"],
        // Any layer
        "alpha": ["opacity"], "transparency": ["opacity"],
    ]

    /// The key of `table` that `key` is a known synonym of, if any.
    public static func suggestion(for key: String, in table: PropertyTable) -> String? {
        table[key] == nil ? Self.table[key]?.first(where: { table[$0] != nil }) : nil
    }
}
