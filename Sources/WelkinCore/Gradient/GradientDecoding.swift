// The four gradient layer kinds (SwiftUI's LinearGradient, RadialGradient, AngularGradient,
// EllipticalGradient) and gradient stops: property tables and decoding.

extension GradientStop {
    public static let properties = PropertyTable("gradientStop", title: "gradient stop",
        "A colour at a location along the gradient. Stops may also be plain colours, spaced evenly from 0 to 1.", [
        Property("color", .color, required: true, "The stop's colour (sRGB)."),
        Property("location", .number(0...1), required: true, "Where along the gradient, 0…1."),
    ])

    /// Stops as a scene gives them: objects, or plain colours spaced evenly.
    static let arrayType = PropertyType.oneOf([
        .array(.color, count: 1...Gradient.maximumStops),
        .array(.object(GradientStop.properties), count: 1...Gradient.maximumStops),
    ])
}

extension Gradient {
    static let stopsProperty = Property("stops", GradientStop.arrayType, required: true,
        "Colour stops: objects {color, location} or plain colours spaced evenly (1…\(maximumStops)).")

    static func centerProperty() -> Property {
        Property("center", .unitPoint(-1e4...1e4), default: .point([0.5, 0.5]), "The gradient's centre.")
    }

    static let linearKind = LayerKind("linearGradient", "SwiftUI's LinearGradient: t runs from start to end; isolines are perpendicular in pixel space.", [
        Property("start", .unitPoint(-1e4...1e4), default: .point([0.5, 0]), "Where t = 0."),
        Property("end", .unitPoint(-1e4...1e4), default: .point([0.5, 1]), "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        Gradient(shape: .linear(start: try object.unitPoint("start") ?? [0.5, 0], end: try object.unitPoint("end") ?? [0.5, 1]),
                 stops: try decodeStops(object), colorSpace: context.colorSpace)
    }

    static let radialKind = LayerKind("radialGradient", "SwiftUI's RadialGradient: t runs from startRadius to endRadius around center.", [
        centerProperty(),
        Property("startRadius", .number(0...1e6), default: .number(0), unit: "pt", "Where t = 0."),
        Property("endRadius", .number(0...1e6), default: .described("half the shorter side of the frame"), unit: "pt", "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        let size = context.sceneSize
        return Gradient(shape: .radial(center: try object.unitPoint("center") ?? [0.5, 0.5],
                                       startRadius: try object.number("startRadius") ?? 0,
                                       endRadius: try object.number("endRadius") ?? Double(min(size.x, size.y)) / 2),
                        stops: try decodeStops(object), colorSpace: context.colorSpace)
    }

    static let angularKind = LayerKind("angularGradient", "SwiftUI's AngularGradient: t runs with the angle around center.", [
        centerProperty(),
        Property("startAngle", .number(-1e6...1e6), default: .number(0), unit: "°", "Where t = 0: 0 is +x, positive turns clockwise on screen."),
        Property("endAngle", .number(-1e6...1e6), default: .number(360), unit: "°", "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        Gradient(shape: .angular(center: try object.unitPoint("center") ?? [0.5, 0.5],
                                 startAngle: try object.number("startAngle") ?? 0,
                                 endAngle: try object.number("endAngle") ?? 360),
                 stops: try decodeStops(object), colorSpace: context.colorSpace)
    }

    static let ellipticalKind = LayerKind("ellipticalGradient", "SwiftUI's EllipticalGradient: t from the distance to center, radii as fractions of the frame.", [
        centerProperty(),
        Property("startRadiusFraction", .number(0...1e4), default: .number(0), "Where t = 0, as a fraction of the frame's width and height."),
        Property("endRadiusFraction", .number(0...1e4), default: .number(0.5), "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        Gradient(shape: .elliptical(center: try object.unitPoint("center") ?? [0.5, 0.5],
                                    startRadiusFraction: try object.number("startRadiusFraction") ?? 0,
                                    endRadiusFraction: try object.number("endRadiusFraction") ?? 0.5),
                 stops: try decodeStops(object), colorSpace: context.colorSpace)
    }

    /// A gradient layer's `stops` (required). Gradient layers with bad stops draw nothing, so an
    /// empty list is only ever returned while collecting errors.
    static func decodeStops(_ object: ObjectReader) throws -> [GradientStop] {
        try object.decode("stops", SceneLoader.decodeStops) ?? []
    }
}

extension SceneLoader {
    /// Stops: objects `{color, location}`, or plain colours spaced evenly from 0 to 1.
    static func decodeStops(_ node: Node) throws -> [GradientStop] {
        guard case .array(let values) = node.value.kind else { throw node.wrongType("an array") }
        guard !values.isEmpty else { throw node.error(.emptyStops, "a gradient needs at least one stop") }
        let items = try node.array(count: 1...Gradient.maximumStops, "stops")
        let objects = items.filter { if case .object = $0.value.kind { return true } else { return false } }
        if objects.isEmpty {
            let n = items.count
            return try items.enumerated().compactMap { i, item in
                try item.recover { GradientStop(color: try item.color(), location: n == 1 ? 0 : Double(i) / Double(n - 1)) }
            }
        }
        if objects.count != items.count, let plain = items.first(where: { if case .object = $0.value.kind { return false } else { return true } }) {
            throw plain.error(.wrongType, "expected a stop {\"color\": …, \"location\": …} like the other stops, got \(plain.value.kindName)")
        }
        return try items.compactMap { item in
            try item.recover {
                let stop = try item.object(GradientStop.properties)
                try stop.checkKeys()
                return GradientStop(color: try stop.required("color").color(),
                                    location: try stop.required("location").number(in: 0...1))
            }
        }
    }
}
