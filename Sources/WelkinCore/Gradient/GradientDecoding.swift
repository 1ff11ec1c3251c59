// The four gradient layer kinds (SwiftUI's LinearGradient, RadialGradient, AngularGradient,
// EllipticalGradient) and gradient stops: property tables and decoding.

extension GradientStop {
    public static let properties = PropertyTable("gradientStop", title: "gradient stop",
        "A colour at a location along the gradient. Stops may also be plain colours, spaced evenly from 0 to 1.", [
        Property("color", KeyframeTables.colorType, required: true, animatable: true, "The stop's colour (sRGB); keyframes or an animation make it change."),
        Property("location", KeyframeTables.numberType(0...1), required: true, animatable: true, "Where along the gradient, 0…1; it may animate (stops passing each other swap places)."),
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
        Property("center", KeyframeTables.unitPointType(-1e4...1e4), default: .point([0.5, 0.5]), animatable: true, "The gradient's centre.")
    }

    static let linearKind = LayerKind("linearGradient", "SwiftUI's LinearGradient: t runs from start to end; isolines are perpendicular in pixel space.", [
        Property("start", KeyframeTables.unitPointType(-1e4...1e4), default: .point([0.5, 0]), animatable: true, "Where t = 0."),
        Property("end", KeyframeTables.unitPointType(-1e4...1e4), default: .point([0.5, 1]), animatable: true, "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        try decodeGradient(object, context, points: [("start", [0.5, 0]), ("end", [0.5, 1])], numbers: []) { p, _ in
            .linear(start: p[0], end: p[1])
        }
    }

    static let radialKind = LayerKind("radialGradient", "SwiftUI's RadialGradient: t runs from startRadius to endRadius around center.", [
        centerProperty(),
        Property("startRadius", KeyframeTables.numberType(0...1e6), default: .number(0), unit: "pt", animatable: true, "Where t = 0."),
        Property("endRadius", KeyframeTables.numberType(0...1e6), default: .described("half the shorter side of the frame"), unit: "pt",
                 animatable: true, "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        let size = context.sceneSize
        return try decodeGradient(object, context, points: [("center", [0.5, 0.5])],
                                  numbers: [("startRadius", 0), ("endRadius", Double(min(size.x, size.y)) / 2)]) { p, n in
            .radial(center: p[0], startRadius: n[0], endRadius: n[1])
        }
    }

    static let angularKind = LayerKind("angularGradient", "SwiftUI's AngularGradient: t runs with the angle around center.", [
        centerProperty(),
        Property("startAngle", KeyframeTables.numberType(-1e6...1e6), default: .number(0), unit: "°", animatable: true,
                 "Where t = 0: 0 is +x, positive turns clockwise on screen."),
        Property("endAngle", KeyframeTables.numberType(-1e6...1e6), default: .number(360), unit: "°", animatable: true, "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        try decodeGradient(object, context, points: [("center", [0.5, 0.5])], numbers: [("startAngle", 0), ("endAngle", 360)]) { p, n in
            .angular(center: p[0], startAngle: n[0], endAngle: n[1])
        }
    }

    static let ellipticalKind = LayerKind("ellipticalGradient", "SwiftUI's EllipticalGradient: t from the distance to center, radii as fractions of the frame.", [
        centerProperty(),
        Property("startRadiusFraction", KeyframeTables.numberType(0...1e4), default: .number(0), animatable: true,
                 "Where t = 0, as a fraction of the frame's width and height."),
        Property("endRadiusFraction", KeyframeTables.numberType(0...1e4), default: .number(0.5), animatable: true, "Where t = 1."),
        stopsProperty,
    ], groupable: true, draws: [GradientDraw.self]) { object, context in
        try decodeGradient(object, context, points: [("center", [0.5, 0.5])],
                           numbers: [("startRadiusFraction", 0), ("endRadiusFraction", 0.5)]) { p, n in
            .elliptical(center: p[0], startRadiusFraction: n[0], endRadiusFraction: n[1])
        }
    }

    /// A gradient of any shape: its points and numbers (each a constant or animated, with its default)
    /// and its stops; `shape` builds the shape from values. The gradient holds the values at time 0
    /// and, when anything animates, a GradientAnimation.
    static func decodeGradient(_ object: ObjectReader, _ context: LayerKind.Context,
                               points: [(String, SIMD2<Double>)], numbers: [(String, Double)],
                               shape: ([SIMD2<Double>], [Double]) -> Shape) throws -> Gradient {
        let p = try points.map { key, d in try object.animatedUnitPoint(key) ?? .constant(d) }
        let n = try numbers.map { key, d in try object.animatedNumber(key) ?? .constant(d) }
        let stops = try decodeAnimatedStops(object)
        var gradient = Gradient(shape: shape(p.map { $0.value(at: 0) }, n.map { $0.value(at: 0) }),
                                stops: stops.map { GradientStop(color: $0.color.value(at: 0), location: $0.location.value(at: 0)) },
                                colorSpace: context.colorSpace)
        let animation = GradientAnimation(stops: stops, points: p, numbers: n)
        if animation.isAnimated { gradient.animation = animation }
        return gradient
    }

    /// A gradient layer's `stops` (required). Gradient layers with bad stops draw nothing, so an
    /// empty list is only ever returned while collecting errors.
    static func decodeAnimatedStops(_ object: ObjectReader) throws -> [GradientAnimation.Stop] {
        try object.decode("stops", SceneLoader.decodeStops) ?? []
    }
}

extension SceneLoader {
    /// Stops: objects `{color, location}` (each may animate), or plain colours spaced evenly from 0 to 1.
    static func decodeStops(_ node: Node) throws -> [GradientAnimation.Stop] {
        guard case .array(let values) = node.value.kind else { throw node.wrongType("an array") }
        guard !values.isEmpty else { throw node.error(.emptyStops, "a gradient needs at least one stop") }
        let items = try node.array(count: 1...Gradient.maximumStops, "stops")
        let objects = items.filter { if case .object = $0.value.kind { return true } else { return false } }
        if objects.isEmpty {
            let n = items.count
            return try items.enumerated().compactMap { i, item in
                try item.recover {
                    GradientAnimation.Stop(color: .constant(try item.color()), location: .constant(n == 1 ? 0 : Double(i) / Double(n - 1)))
                }
            }
        }
        if objects.count != items.count, let plain = items.first(where: { if case .object = $0.value.kind { return false } else { return true } }) {
            throw plain.error(.wrongType, "expected a stop {\"color\": …, \"location\": …} like the other stops, got \(plain.value.kindName)")
        }
        return try items.compactMap { item in
            try item.recover {
                let stop = try item.object(GradientStop.properties)
                try stop.checkKeys()
                return GradientAnimation.Stop(color: try stop.required("color").animatedColor(),
                                              location: try stop.required("location").animatedNumber(in: 0...1, "a number in 0…1"))
            }
        }
    }
}
