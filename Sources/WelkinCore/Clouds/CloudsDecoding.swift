// The `clouds` layer's property table and decoder.

extension CloudsLayer {
    static let kind = LayerKind("clouds", "Volumetric clouds between a base and a top altitude, ray-marched and lit by the sun and the sky (docs/sky.md).", {
        let d = CloudsLayer()
        return [
            Property("cloudType", .choice(CloudType.allCases.map(\.rawValue)), default: .described("the weather's (clear: cumulus, overcast: stratus, storm: cumulonimbus)"),
                     expected: "cloud type", "cumulus (heaped, flat bases), stratocumulus (a sheet of cells), stratus (a low deck) or cumulonimbus (a storm's)."),
            Property("coverage", .number(0...1), default: .described("the weather's (clear: 0.32)"), expected: "a coverage in 0…1", "How much of the sky is cloud."),
            Property("density", .number(0...10), default: .described("the weather's (clear: 1)"), expected: "a factor in 0…10",
                     "Multiplies the cloud's extinction: thicker, darker undersides."),
            Property("altitude", .interval(0...20), default: .described("the type's (cumulus: 1.2–2.6 km)"), unit: "km",
                     expected: "an altitude in 0…20 km", "[base, top] of the layer."),
            Property("wind", .pair(-500...500), default: .described("the weather's"), unit: "m/s",
                     expected: "a wind [right, away] of at most 500 m/s on each axis", "Drift: to the right of the view and away from it."),
            Property("evolution", .number(0...100), default: .number(d.evolution), expected: "a rate in 0…100", "How fast the clouds' shapes change (0: frozen)."),
            Property("cirrus", .number(0...1), default: .described("the weather's (clear: 0.35)"), expected: "an amount in 0…1", "The thin high cirrus sheet at 8.5 km."),
            Property("relief", .number(0...1), default: .described("the type's (stratus: 0.7, cumulus: 0)"), expected: "an amount in 0…1",
                     "A deck's relief: its base lighter where the sheet is thinner and darker in its thicker rolls (0: one even grey)."),
            Property("scale", .number(0.1...10), default: .number(d.scale), expected: "a factor in 0.1…10", "Multiplies the clouds' size."),
            Property("resolution", .number(0.125...1), default: .number(d.resolution), expected: "a fraction in 0.125…1",
                     "In the viewer while the picture changes: the fraction of the output's width and height marched (then upsampled). Renders, exports and a still viewer march every pixel."),
            Property("steps", .integer(4...maximumSteps), default: .number(Double(d.steps)), expected: "a count in 4…\(maximumSteps)",
                     "In the viewer while the picture changes: the samples along a view ray through the layer. Renders take \(finalSteps), or these if more."),
            Property("seed", .integer(0...(1 << 53)), default: .number(0), live: false, expected: "a whole number ≥ 0", "Mixed with the scene's seed."),
        ]
    }(), draws: [CloudsDraw.self]) { object, _ in try SceneLoader.decodeClouds(object) }
}

extension SceneLoader {
    static func decodeClouds(_ object: ObjectReader) throws -> CloudsLayer {
        var layer = CloudsLayer()
        if let v = try object.choice("cloudType", as: CloudType.self) { layer.cloudType = v }
        if let v = try object.number("coverage") { layer.coverage = v }
        if let v = try object.number("density") { layer.density = v }
        if let v = try object.interval("altitude") { layer.altitude = v }
        if let v = try object.pair("wind") { layer.wind = v }
        if let v = try object.number("evolution") { layer.evolution = v }
        if let v = try object.number("cirrus") { layer.cirrus = v }
        if let v = try object.number("relief") { layer.relief = v }
        if let v = try object.number("scale") { layer.scale = v }
        if let v = try object.number("resolution") { layer.resolution = v }
        if let v = try object.integer("steps") { layer.steps = v }
        if let v = try object.integer("seed") { layer.seed = UInt64(v) }
        return layer
    }
}
