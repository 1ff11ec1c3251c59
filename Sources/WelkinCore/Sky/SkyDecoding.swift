// Decoding and validating the sky layers and top-level `weather`, with JSON paths in every error.

import Foundation

extension SceneLoader {
    static let skyKeys = ["date", "latitude", "longitude", "timeScale", "sunElevation", "sunAzimuth",
                          "viewAzimuth", "fieldOfView", "horizon", "palette", "sunSize", "stars", "starDensity"]
    static let cloudSpritesKeys = ["count", "kinds", "size", "band", "crossingTime", "speed", "seed"]
    static let cloudCoverKeys = ["coverage", "sharpness", "scale", "wind", "seed", "octaves"]
    static let weatherKeys = ["preset", "transition", "schedule", "precipitation"]
    /// The most palette keyframes a sky may have.
    public static let maximumKeyframes = 32

    static func decodeSkyContent(_ type: String, _ object: ObjectReader) throws -> SkyContent {
        switch type {
        case "sky": return .sky(try decodeSky(object))
        case "cloudSprites": return .cloudSprites(try decodeCloudSprites(object))
        default: return .cloudCover(try decodeCloudCover(object))
        }
    }

    static func decodeSky(_ object: ObjectReader) throws -> SkyLayer {
        var sky = SkyLayer()
        if let dateNode = object["date"] {
            let text = try dateNode.string()
            guard let date = Timestamp.parse(text) else {
                throw dateNode.error(.invalidValue, "expected an ISO 8601 date with a UTC offset like \"2024-06-21T05:30:00+02:00\", got \"\(text)\"")
            }
            for key in ["sunElevation", "sunAzimuth"] {
                if let n = object[key] {
                    throw n.error(.invalidValue, "'\(key)' fixes the sun, but 'date' computes it; use one or the other")
                }
            }
            let latitude = try object.required("latitude").number(in: -90...90, "a latitude in −90…90 degrees")
            let longitude = try object.required("longitude").number(in: -180...180, "a longitude in −180…180 degrees")
            let timeScale = try object["timeScale"]?.number(in: -1e6...1e6, "a number of sky seconds per scene second in −1000000…1000000") ?? 1
            sky.sun = .computed(date: date, latitude: latitude, longitude: longitude, timeScale: timeScale)
        } else {
            for key in ["latitude", "longitude", "timeScale"] {
                if let n = object[key] {
                    throw n.error(.missingKey, "'\(key)' needs a 'date' to compute the sun from (or set 'sunElevation' instead)")
                }
            }
            let elevation = try object["sunElevation"]?.number(in: -90...90, "an elevation in −90…90 degrees") ?? 30
            let azimuth = try object["sunAzimuth"]?.number(in: -360...720, "an azimuth in degrees clockwise from north") ?? 180
            sky.sun = .fixed(elevation: elevation, azimuth: azimuth)
        }
        if let n = object["viewAzimuth"] { sky.viewAzimuth = try n.number(in: -360...720, "an azimuth in degrees clockwise from north") }
        if let n = object["fieldOfView"] { sky.fieldOfView = try n.number(in: 1...360, "a field of view in 1…360 degrees") }
        if let n = object["horizon"] { sky.horizon = try n.number(in: 0.05...2, "a unit y in 0.05…2") }
        if let n = object["sunSize"] { sky.sunSize = try n.number(in: 0...30, "a diameter in 0…30 degrees") }
        if let n = object["stars"] { sky.stars = try n.bool() }
        if let n = object["starDensity"] { sky.starDensity = try n.number(in: 0...1) }
        if let n = object["palette"] { sky.palette = try decodePalette(n) }
        return sky
    }

    static func decodePalette(_ node: Node) throws -> [SkyKeyframe] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.error(.emptyStops, "a palette needs at least one keyframe") }
        guard items.count <= maximumKeyframes else {
            throw node.error(.outOfRange, "at most \(maximumKeyframes) keyframes, got \(items.count)")
        }
        var keyframes: [SkyKeyframe] = []
        for item in items {
            let k = try item.object(["elevation", "zenith", "horizon", "sunGlow"])
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

    /// `[low, high]` with low ≤ high, each in `range`.
    static func decodeRange(_ node: Node, _ range: ClosedRange<Double>, _ what: String) throws -> ClosedRange<Double> {
        let items = try node.array()
        guard items.count == 2 else { throw node.error(.wrongType, "expected [low, high], got an array of \(items.count)") }
        let low = try items[0].number(in: range, what), high = try items[1].number(in: range, what)
        guard low <= high else { throw node.error(.outOfRange, "expected [low, high] with low ≤ high, got [\(format(low)), \(format(high))]") }
        return low...high
    }

    static func decodeSeed(_ node: Node) throws -> UInt64 {
        UInt64(try node.integer(in: 0...(1 << 53), "a whole number ≥ 0"))
    }

    static func decodeCloudSprites(_ object: ObjectReader) throws -> CloudSpritesLayer {
        var layer = CloudSpritesLayer()
        if let n = object["count"] { layer.count = try n.integer(in: 0...CloudSpritesLayer.maximumCount) }
        if let n = object["kinds"] {
            let items = try n.array()
            guard !items.isEmpty else { throw n.error(.invalidValue, "expected at least one cloud kind (cumulus, cirrus, stratus)") }
            layer.kinds = try items.map { CloudSpritesLayer.Kind(rawValue: try $0.oneOf(CloudSpritesLayer.Kind.allCases.map(\.rawValue), "cloud kind"))! }
        }
        if let n = object["size"] { layer.sizeRange = try decodeRange(n, 1...4096, "a width in 1…4096 points") }
        if let n = object["band"] { layer.band = try decodeRange(n, -0.5...1.5, "a unit y in −0.5…1.5") }
        if let n = object["crossingTime"] { layer.crossingTime = try decodeRange(n, 0.1...100_000, "seconds in 0.1…100000") }
        if let n = object["speed"] { layer.speed = try n.number(in: 0...1000, "a speed factor in 0…1000") }
        if let n = object["seed"] { layer.seed = try decodeSeed(n) }
        return layer
    }

    static func decodeCloudCover(_ object: ObjectReader) throws -> CloudCoverLayer {
        var layer = CloudCoverLayer()
        if let n = object["coverage"] { layer.coverage = try n.number(in: 0...1, "a coverage in 0…1") }
        if let n = object["sharpness"] { layer.sharpness = try n.number(in: 0.5...50, "a sharpness in 0.5…50") }
        if let n = object["scale"] { layer.scale = try n.number(in: 1...100_000, "a feature size in 1…100000 points") }
        if let n = object["wind"] {
            let w = try n.pair()
            guard abs(w.x) <= 10_000, abs(w.y) <= 10_000 else {
                throw n.error(.outOfRange, "expected a wind [x, y] of at most 10000 points per second on each axis")
            }
            layer.wind = w
        }
        if let n = object["octaves"] { layer.octaves = try n.integer(in: 1...8) }
        if let n = object["seed"] { layer.seed = try decodeSeed(n) }
        return layer
    }

    /// Top-level `weather`: a preset name, or {preset, transition, schedule}.
    static func decodeWeather(_ node: Node) throws -> Weather {
        let names = WeatherPreset.allCases.map(\.rawValue)
        if case .string = node.value.kind {
            return Weather(preset: WeatherPreset(rawValue: try node.oneOf(names, "weather preset"))!)
        }
        let object = try node.object(weatherKeys)
        try object.checkKeys()
        var weather = Weather()
        if let n = object["preset"] { weather.preset = WeatherPreset(rawValue: try n.oneOf(names, "weather preset"))! }
        if let n = object["transition"] { weather.transition = try n.number(in: 0...3600, "seconds in 0…3600") }
        if let n = object["schedule"] {
            for item in try n.array() {
                let entry = try item.object(["at", "preset"])
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
        if let n = object["precipitation"] { weather.precipitation = try decodePrecipitation(n) }
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
            let object = try node.object(["rain", "snow"])
            try object.checkKeys()
            var settings = PrecipitationSettings()
            if let n = object["rain"] { settings.rain = try n.number(in: range, expected) }
            if let n = object["snow"] { settings.snow = try n.number(in: range, expected) }
            return settings
        }
    }
}
