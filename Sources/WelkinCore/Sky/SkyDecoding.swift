// Decoding and validating the sky layers and top-level `weather`, with JSON paths in every error.

import Foundation

extension SkyLayer {
    /// The most palette keyframes a sky may have.
    public static let maximumKeyframes = 32

    static let kind = LayerKind("sky", "A horizon-to-zenith gradient following the real (or a fixed) sun, with the sun's disc and glow and stars (docs/sky.md).", {
        let d = SkyLayer()
        let azimuth = "an azimuth in degrees clockwise from north"
        return [
            Property("date", .date, live: false, "The sky's date and time at scene time 0 (ISO 8601 with a UTC offset); with latitude and longitude, computes the sun."),
            Property("latitude", .number(-90...90), unit: "°", expected: "a latitude in −90…90 degrees", "Where the sky is seen from (needs date).")
                .with(needs: ["date"]),
            Property("longitude", .number(-180...180), unit: "°", expected: "a longitude in −180…180 degrees", "Where the sky is seen from, east positive (needs date).")
                .with(needs: ["date"]),
            Property("timeScale", .number(-1e6...1e6), default: .number(1),
                     expected: "a number of sky seconds per scene second in −1000000…1000000", "Sky seconds per scene second (60: an hour a minute).")
                .with(needs: ["date"]),
            Property("sunElevation", .number(-90...90), default: .number(30), unit: "°", animatable: false,
                     expected: "an elevation in −90…90 degrees", "A fixed sun's elevation (instead of date).")
                .with(conflicts: ["date"]),
            Property("sunAzimuth", .number(-360...720), default: .number(180), unit: "°", expected: azimuth, "A fixed sun's azimuth, clockwise from north.")
                .with(conflicts: ["date"]),
            Property("viewAzimuth", .number(-360...720), default: .number(d.viewAzimuth), unit: "°", expected: azimuth, "Where the view looks, clockwise from north."),
            Property("fieldOfView", .number(1...360), default: .number(d.fieldOfView), unit: "°", expected: "a field of view in 1…360 degrees",
                     "The view's horizontal field of view."),
            Property("horizon", .number(0.05...2), default: .number(d.horizon), unit: "unit", expected: "a unit y in 0.05…2", "Unit y of the horizon line."),
            Property("ground", .oneOf([.choice(["physical", "none"]), .color]), default: .string("physical"),
                     expected: "\"physical\", \"none\" or a colour",
                     "Below the horizon: the model's ground, none (sky to the bottom: the horizon's colour continues) or a colour faded in through \(SkyGround.fadeDegrees)° of haze."),
            Property("palette", .array(.object(SkyKeyframe.properties), count: 1...maximumKeyframes), default: .described("seed 000's night, twilight, sunset and day"),
                     "Colours by sun elevation, blended in OKLab.").withDefaultJSON(.array(defaultPalette.map(\.json))),
            Property("sunSize", .number(0...30), default: .number(d.sunSize), unit: "°", expected: "a diameter in 0…30 degrees", "The sun disc's apparent diameter."),
            Property("stars", .oneOf([.bool, .choice(StarSource.allCases.map(\.rawValue))]), default: .bool(d.stars),
                     expected: "true, false, \"catalog\" or \"random\"",
                     "Whether stars show after sunset, and which: a dated sky's are the Hipparcos catalogue's where they really are (\"catalog\"), an undated sky's a random field (\"random\")."),
            Property("starDensity", .number(0...1), default: .number(d.starDensity), "The random field's fraction of star cells that hold a star."),
            Property("starMagnitudeLimit", .number(-2...6.5), default: .number(d.starMagnitudeLimit), expected: "a V magnitude in −2…6.5",
                     "The catalogue's faintest star drawn (the sky's own brightness hides fainter ones).").with(needs: ["date"]),
            Property("starBrightness", .number(0...100), default: .number(d.starBrightness), expected: "a factor in 0…100",
                     "Multiplies the catalogue stars' and planets' brightness (design).").with(needs: ["date"]),
            Property("moon", .bool, default: .bool(d.moon), "Whether a dated sky draws the Moon, with its phase, where it is.").with(needs: ["date"]),
            Property("moonScale", .number(0.1...60), default: .number(d.moonScale), expected: "a factor in 0.1…60",
                     "Enlarges the Moon's true size (design).").with(needs: ["date"]),
            Property("planets", .bool, default: .bool(d.planets), "Whether a dated sky draws Mercury, Venus, Mars, Jupiter and Saturn.").with(needs: ["date"]),
            Property("refraction", .bool, default: .bool(d.refraction),
                     "Whether the air lifts the sun, Moon, planets and stars near the horizon (Sæmundsson's formula for the night sky)."),
            Property("model", .choice(SkyModel.allCases.map(\.rawValue)), default: .string(SkyModel.palette.rawValue), expected: "sky model",
                     "palette: seed 000's colours by sun elevation; physical: light scattered by the atmosphere."),
            Property("atmosphere", .object(Atmosphere.properties), default: .described("Earth's"),
                     "The physical model's air (groundRadius, rayleighScattering, mieG, visibility, …).").with(needs: ["model"])
                .withDefaultJSON(Atmosphere().json),
            Property("exposure", .oneOf([.choice(["auto"]), .number(-30...30)]), default: .string("auto"), unit: "EV",
                     expected: "\"auto\" or a number of stops in −30…30", "The physical model's exposure: radiance × 2^EV, or keyed to the sky's brightness.")
                .with(needs: ["model"]),
            Property("toneMap", .choice(ToneMap.allCases.map(\.rawValue)), default: .string(ToneMap.agx.rawValue), expected: "tone curve",
                     "The physical model's tone curve: agx, aces, neutral (Khronos PBR Neutral) or clamp.").with(needs: ["model"]),
            Property("sunDisc", .bool, default: .bool(true), "Whether the physical model draws the sun's disc.").with(needs: ["model"]),
            Property("sunScale", .number(0.1...60), default: .number(1), expected: "a factor in 0.1…60",
                     "Enlarges the physical sun disc's true 0.533° (design).").with(needs: ["model"]),
            Property("sunGlare", .number(0...4), default: .number(1), expected: "a factor in 0…4",
                     "Scales the glare around the physical sun on screen: the eye's point spread (CIE 2002), 0 for none.").with(needs: ["model"]),
            Property("milkyWay", .number(0...10), default: .number(1), expected: "a factor in 0…10",
                     "Scales the Milky Way's band in a dated physical night (Gaia's all-sky map, calibrated to its measured brightness), 0 for none.")
                .with(needs: ["model"]),
            Property("lightPollution", .oneOf([.integer(1...9), .object(LightPollution.properties)]), default: .described("none (a dark site)"),
                     expected: "a Bortle class 1…9 or {\"zenith\": mag/arcsec² in 16…22}",
                     "A city's light in the physical night sky: a Bortle class, or the zenith's brightness as a Sky Quality Meter reads it.")
                .with(needs: ["model"]),
            Property("fog", .oneOf([.bool, .number(Fog.visibilityRange), .object(Fog.properties)]), default: .described("the weather's"),
                     expected: "false, a visibility in 10…100000 m or {\"visibility\": m, \"height\": m}",
                     "Fog near the ground in front of the physical sky, its ground and its sun: the weather's (the fog preset's) unless given; false for none.")
                .with(needs: ["model"]),
        ]
    }(), draws: [SkyDraw.self]) { object, _ in SkyContent.sky(try SceneLoader.decodeSky(object)) }
}

extension SkyKeyframe {
    /// The keyframe as a scene file spells it.
    public var json: JSONValue {
        func color(_ c: RGBA, alpha: Bool) -> JSONValue {
            .array((alpha ? [c.r, c.g, c.b, c.a] : [c.r, c.g, c.b]).map { .number(($0 * 1000).rounded() / 1000) })
        }
        return .object([("elevation", .number(elevation)), ("zenith", color(zenith, alpha: false)),
                        ("horizon", color(horizon, alpha: false)), ("sunGlow", color(sunGlow, alpha: true))])
    }

    public static let properties = PropertyTable("skyKeyframe", title: "sky palette keyframe", "The sky's colours when the sun is at an elevation.", [
        Property("elevation", .number(-90...90), required: true, unit: "°", expected: "an elevation in −90…90 degrees",
                 "The sun's elevation (keyframes in increasing order)."),
        Property("zenith", .color, required: true, "The colour overhead."),
        Property("horizon", .color, required: true, "The colour at the horizon."),
        Property("sunGlow", .color, default: .color(RGBA(1, 0.9, 0.7, 0.5)), "The glow around the sun; its alpha is the glow's strength."),
    ])
}

extension CloudSpritesLayer {
    static let kind = LayerKind("cloudSprites", "Seed 000's drifting clouds: cumulus, cirrus and stratus sprites crossing the sky.", {
        let d = CloudSpritesLayer()
        return [
            Property("count", .integer(0...maximumCount), default: .number(Double(d.count)), live: false, "How many clouds."),
            Property("kinds", .array(.choice(Kind.allCases.map(\.rawValue)), count: 1...8), default: .described("all three"),
                     "The kinds of cloud to pick from (cumulus, cirrus, stratus)."),
            Property("size", .interval(1...4096), default: .interval(d.sizeRange), unit: "pt", expected: "a width in 1…4096 points", "[smallest, largest] cloud width."),
            Property("band", .interval(-0.5...1.5), default: .interval(d.band), unit: "unit", expected: "a unit y in −0.5…1.5", "[top, bottom] of the band the clouds drift in."),
            Property("crossingTime", .interval(0.1...100_000), default: .interval(d.crossingTime), unit: "s", expected: "seconds in 0.1…100000",
                     "[fastest, slowest] time to cross the frame."),
            Property("speed", .number(0...1000), default: .described("the weather's"), expected: "a speed factor in 0…1000", "Multiplies the drift speed."),
            Property("seed", .integer(0...(1 << 53)), default: .number(0), live: false, expected: "a whole number ≥ 0", "Mixed with the scene's seed."),
        ]
    }(), draws: [SkyDraw.self]) { object, _ in SkyContent.cloudSprites(try SceneLoader.decodeCloudSprites(object)) }
}

extension CloudCoverLayer {
    static let kind = LayerKind("cloudCover", "fBm cloud cover from integer-hash noise, lit by the sky's colours.", {
        let d = CloudCoverLayer()
        return [
            Property("coverage", .number(0...1), default: .described("the weather's (clear: 0.25)"), expected: "a coverage in 0…1", "How much of the sky is cloud."),
            Property("sharpness", .number(0.5...50), default: .number(d.sharpness), expected: "a sharpness in 0.5…50", "How hard the cloud edges are."),
            Property("scale", .number(1...100_000), default: .number(d.scale), unit: "pt", expected: "a feature size in 1…100000 points",
                     "Feature size (one noise cell at the top of the view)."),
            Property("wind", .pair(-10_000...10_000), default: .described("the weather's"), unit: "pt/s",
                     expected: "a wind [x, y] of at most 10000 points per second on each axis", "Drift [x, y]."),
            Property("seed", .integer(0...(1 << 53)), default: .number(0), live: false, expected: "a whole number ≥ 0", "Mixed with the scene's seed."),
            Property("octaves", .integer(1...8), default: .number(Double(d.octaves)), "Noise octaves (detail)."),
        ]
    }(), draws: [SkyDraw.self]) { object, _ in SkyContent.cloudCover(try SceneLoader.decodeCloudCover(object)) }
}

extension Weather {
    /// `weather`: a preset name, or an object.
    static let propertyType = PropertyType.oneOf([.choice(WeatherPreset.allCases.map(\.rawValue)), .object(Weather.properties)])

    /// The most entries a weather schedule may have.
    public static let maximumScheduleEntries = 1000

    public static let properties: PropertyTable = {
        let presets = PropertyType.choice(WeatherPreset.allCases.map(\.rawValue))
        return PropertyTable("weather", title: "weather", "Weather presets cross-faded over time: palette tint, clouds, wind, rain and snow.", [
            Property("preset", presets, default: .string(WeatherPreset.clear.rawValue), expected: "weather preset", "The weather at time 0."),
            Property("transition", .number(0...3600), default: .number(3), unit: "s", expected: "seconds in 0…3600", "How long a change of preset cross-fades."),
            Property("schedule", .array(.object(scheduleEntryProperties), count: 0...maximumScheduleEntries), default: .emptyArray, animatable: true,
                     "Later presets by scene time, in order."),
            Property("precipitation", PrecipitationSettings.propertyType, default: .bool(true),
                     "false (none), true, an amount for both, or {rain, snow}: multiplies the presets' rain and snow."),
        ])
    }()

    public static let scheduleEntryProperties = PropertyTable("weatherScheduleEntry", title: "weather schedule entry", "A preset from a scene time on.", [
        Property("at", .number(0...1e9), required: true, unit: "s", expected: "a scene time ≥ 0 in seconds", "The scene time the change starts."),
        Property("preset", .choice(WeatherPreset.allCases.map(\.rawValue)), required: true, expected: "weather preset", "The weather from then on."),
    ])
}

extension PrecipitationSettings {
    static let propertyType = PropertyType.oneOf([.bool, .number(0...maximumAmount), .object(properties)])

    public static let properties = PropertyTable("precipitation", title: "precipitation", "How strongly rain and snow fall.", [
        Property("rain", .number(0...maximumAmount), default: .number(1), expected: "an amount in 0…4 (1 = the weather's own)", "Multiplies the rain's birth rate."),
        Property("snow", .number(0...maximumAmount), default: .number(1), expected: "an amount in 0…4 (1 = the weather's own)", "Multiplies the snow's birth rate."),
    ])
}

extension SceneLoader {
    public static var maximumKeyframes: Int { SkyLayer.maximumKeyframes }

    static func decodeSky(_ object: ObjectReader) throws -> SkyLayer {
        var sky = SkyLayer()
        if let dateNode = object["date"] {
            let text = try dateNode.string()
            guard text.count <= 100 else { throw dateNode.error(.outOfRange, "expected an ISO 8601 date, got \(text.count) characters") }
            guard let date = Timestamp.parse(text) else {
                throw dateNode.error(.invalidValue, "expected an ISO 8601 date with a UTC offset like \"2024-06-21T05:30:00+02:00\", got \"\(text)\"")
            }
            for key in ["sunElevation", "sunAzimuth"] {
                if let n = object[key] {
                    throw n.error(.invalidValue, "'\(key)' fixes the sun, but 'date' computes it; use one or the other")
                }
            }
            _ = try object.required("latitude"); _ = try object.required("longitude")
            let latitude = try object.number("latitude") ?? 0
            let longitude = try object.number("longitude") ?? 0
            let timeScale = try object.number("timeScale") ?? 1
            sky.sun = .computed(date: date, latitude: latitude, longitude: longitude, timeScale: timeScale)
        } else {
            for key in ["latitude", "longitude", "timeScale"] {
                if let n = object[key] {
                    throw n.error(.missingKey, "'\(key)' needs a 'date' to compute the sun from (or set 'sunElevation' instead)")
                }
            }
            let elevation = try object.number("sunElevation") ?? 30
            let azimuth = try object.number("sunAzimuth") ?? 180
            sky.sun = .fixed(elevation: elevation, azimuth: azimuth)
        }
        if let v = try object.number("viewAzimuth") { sky.viewAzimuth = v }
        if let v = try object.number("fieldOfView") { sky.fieldOfView = v }
        if let v = try object.number("horizon") { sky.horizon = v }
        if let v = try object.number("sunSize") { sky.sunSize = v }
        if let n = object["stars"] {
            if case .string = n.value.kind {
                let source = StarSource(rawValue: try n.oneOf(StarSource.allCases.map(\.rawValue), "true, false, \"catalog\" or \"random\""))!
                if source == .catalog, case .fixed = sky.sun {
                    throw n.error(.invalidValue, "the star catalogue needs a 'date', 'latitude' and 'longitude' to place the stars (or use \"random\")")
                }
                sky.stars = true
                sky.starSource = source
            } else {
                sky.stars = try n.bool()
            }
        }
        if let v = try object.number("starDensity") { sky.starDensity = v }
        if let v = try object.number("starMagnitudeLimit") { sky.starMagnitudeLimit = v }
        if let v = try object.number("starBrightness") { sky.starBrightness = v }
        if let v = try object.bool("moon") { sky.moon = v }
        if let v = try object.number("moonScale") { sky.moonScale = v }
        if let v = try object.bool("planets") { sky.planets = v }
        if let v = try object.bool("refraction") { sky.refraction = v }
        if let v = try object.decode("palette", decodePalette) { sky.palette = v }
        if let v = try object.decode("ground", { n -> SkyGround in
            // A word is "physical", "none" or a colour's name; "#…" and "rgb(…)" are colours.
            if case .string(let s) = n.value.kind, !s.hasPrefix("#"), !s.contains("(") {
                if s == "physical" { return .physical }
                if s == "none" { return .none }
                if let c = try? n.color() { return .color(c) }
                _ = try n.oneOf(["physical", "none"], "ground (not a colour either)")
            }
            return .color(try n.color())
        }) { sky.ground = v }
        if let v = try object.choice("model", as: SkyModel.self) { sky.model = v }
        if let v = try object.decode("atmosphere", decodeAtmosphere) { sky.physical.atmosphere = v }
        if let v = try object.decode("exposure", { n -> Exposure in
            if case .string = n.value.kind {
                _ = try n.oneOf(["auto"], "\"auto\" or a number of stops in −30…30")
                return .auto
            }
            return .ev(try n.number(in: -30...30, "\"auto\" or a number of stops in −30…30"))
        }) { sky.physical.exposure = v }
        if let v = try object.choice("toneMap", as: ToneMap.self) { sky.physical.toneMap = v }
        if let v = try object.bool("sunDisc") { sky.physical.sunDisc = v }
        if let v = try object.number("sunScale") { sky.physical.sunScale = v }
        if let v = try object.number("sunGlare") { sky.physical.sunGlare = v }
        if let v = try object.number("milkyWay") { sky.physical.milkyWay = v }
        if let v = try object.decode("lightPollution", decodeLightPollution) { sky.physical.lightPollution = v }
        if let v = try object.decode("fog", decodeFog) { sky.physical.fog = v }
        if sky.model != .physical {
            for key in ["atmosphere", "exposure", "toneMap", "sunDisc", "sunScale", "sunGlare", "milkyWay", "lightPollution", "fog"] {
                if let n = object[key] {
                    throw n.error(.invalidValue, "'\(key)' belongs to the physical sky; add \"model\": \"physical\" to use it")
                }
            }
        }
        return sky
    }

    /// `lightPollution`: a Bortle class, or `{"zenith": mag/arcsec²}`.
    static func decodeLightPollution(_ node: Node) throws -> LightPollution {
        let expected = "a Bortle class 1…9 or {\"zenith\": mag/arcsec² in 16…22}"
        if case .number = node.value.kind { return .bortle(try node.integer(in: 1...9, expected)) }
        guard case .object = node.value.kind else { throw node.wrongType(expected) }
        let object = try node.object(LightPollution.properties)
        try object.checkKeys()
        guard let zenith = try object.number("zenith") else {
            throw node.error(.invalidValue, "expected \(expected): the object needs \"zenith\"")
        }
        return .zenith(zenith)
    }

    /// `fog`: false (none), true (the preset's fog), a visibility in metres, or `{"visibility": m, "height": m}`.
    static func decodeFog(_ node: Node) throws -> FogSetting {
        let expected = "false, a visibility in 10…100000 m or {\"visibility\": m, \"height\": m}"
        switch node.value.kind {
        case .bool: return try node.bool() ? .fog(Fog.preset) : .off
        case .number: return .fog(Fog(visibility: try node.number(in: Fog.visibilityRange, "a visibility in 10…100000 m")))
        case .object:
            let object = try node.object(Fog.properties)
            try object.checkKeys()
            guard let visibility = try object.number("visibility") else {
                throw node.error(.invalidValue, "expected \(expected): the object needs \"visibility\"")
            }
            return .fog(Fog(visibility: visibility, height: try object.number("height") ?? Fog.defaultHeight))
        default: throw node.wrongType(expected)
        }
    }

    static func decodePalette(_ node: Node) throws -> [SkyKeyframe] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.error(.emptyStops, "a palette needs at least one keyframe") }
        guard items.count <= maximumKeyframes else {
            throw node.error(.outOfRange, "at most \(maximumKeyframes) keyframes, got \(items.count)")
        }
        var keyframes: [SkyKeyframe] = []
        for item in items {
            let k = try item.object(SkyKeyframe.properties)
            try k.checkKeys()
            let elevationNode = try k.required("elevation")
            let elevation = try elevationNode.number(in: -90...90, "an elevation in −90…90 degrees")
            if let last = keyframes.last, !(elevation > last.elevation) {
                throw elevationNode.error(.outOfRange, "keyframes must be in increasing order of elevation: \(format(elevation))° follows \(format(last.elevation))°")
            }
            let zenith = try k.required("zenith").color()
            let horizon = try k.required("horizon").color()
            let glow = try k["sunGlow"]?.color() ?? RGBA(1, 0.9, 0.7, 0.5)
            keyframes.append(SkyKeyframe(elevation: elevation, zenith: zenith, horizon: horizon, sunGlow: glow))
        }
        return keyframes
    }

    static func decodeCloudSprites(_ object: ObjectReader) throws -> CloudSpritesLayer {
        var layer = CloudSpritesLayer()
        if let v = try object.integer("count") { layer.count = v }
        if let n = object["kinds"] {
            let items = try n.array(count: 0...8, "kinds")
            guard !items.isEmpty else { throw n.error(.invalidValue, "expected at least one cloud kind (cumulus, cirrus, stratus)") }
            layer.kinds = try items.map { CloudSpritesLayer.Kind(rawValue: try $0.oneOf(CloudSpritesLayer.Kind.allCases.map(\.rawValue), "cloud kind"))! }
        }
        if let v = try object.interval("size") { layer.sizeRange = v }
        if let v = try object.interval("band") { layer.band = v }
        if let v = try object.interval("crossingTime") { layer.crossingTime = v }
        if let v = try object.number("speed") { layer.speed = v }
        if let v = try object.integer("seed") { layer.seed = UInt64(v) }
        return layer
    }

    static func decodeCloudCover(_ object: ObjectReader) throws -> CloudCoverLayer {
        var layer = CloudCoverLayer()
        if let v = try object.number("coverage") { layer.coverage = v }
        if let v = try object.number("sharpness") { layer.sharpness = v }
        if let v = try object.number("scale") { layer.scale = v }
        if let v = try object.pair("wind") { layer.wind = v }
        if let v = try object.integer("octaves") { layer.octaves = v }
        if let v = try object.integer("seed") { layer.seed = UInt64(v) }
        return layer
    }

    /// Top-level `weather`: a preset name, or {preset, transition, schedule}.
    static func decodeWeather(_ node: Node) throws -> Weather {
        let names = WeatherPreset.allCases.map(\.rawValue)
        if case .string = node.value.kind {
            return Weather(preset: WeatherPreset(rawValue: try node.oneOf(names, "weather preset"))!)
        }
        let object = try node.object(Weather.properties)
        try object.checkKeys()
        var weather = Weather()
        if let v = try object.choice("preset", as: WeatherPreset.self) { weather.preset = v }
        if let v = try object.number("transition") { weather.transition = v }
        if let n = object["schedule"] {
            for item in try n.array(count: 0...Weather.maximumScheduleEntries, "schedule entries") {
                let entry = try item.object(Weather.scheduleEntryProperties)
                try entry.checkKeys()
                let atNode = try entry.required("at")
                let at = try atNode.number(in: 0...1e9, "a scene time ≥ 0 in seconds")
                if let last = weather.schedule.last, at < last.at {
                    throw atNode.error(.outOfRange, "schedule entries must be in order of time: \(format(at)) s follows \(format(last.at)) s")
                }
                let preset = WeatherPreset(rawValue: try entry.required("preset").oneOf(names, "weather preset"))!
                weather.schedule.append((at, preset))
            }
        }
        if let v = try object.decode("precipitation", decodePrecipitation) { weather.precipitation = v }
        return weather
    }

    /// `weather.precipitation`: false (none), true, a number (both kinds' amount), or {rain, snow}.
    static func decodePrecipitation(_ node: Node) throws -> PrecipitationSettings {
        let range = 0...PrecipitationSettings.maximumAmount
        let expected = "an amount in 0…4 (1 = the weather's own)"
        switch node.value.kind {
        case .bool:
            return try node.bool() ? PrecipitationSettings() : .off
        case .number:
            let amount = try node.number(in: range, expected)
            return PrecipitationSettings(rain: amount, snow: amount)
        default:
            let object = try node.object(PrecipitationSettings.properties)
            try object.checkKeys()
            var settings = PrecipitationSettings()
            if let v = try object.number("rain") { settings.rain = v }
            if let v = try object.number("snow") { settings.snow = v }
            return settings
        }
    }
}
