// `welkin new`: a starting scene for the usual weather-app states, framed for its size.
//
// Each preset is a physical sky with the weather's clouds (a clear night or the Milky Way: the real
// night sky of a date instead), looked at through a rectilinear camera chosen for the frame: a portrait phone
// screen sees about 100° from top to bottom, a landscape one 90° across, and the camera is tilted up
// so the horizon sits about 82 % of the way down — mostly sky, a strip of ground under it, nothing
// stretched (the sky's own panorama, over 200° tall on a phone, looks past the zenith).

import Foundation

public enum StarterScene: String, CaseIterable, Sendable {
    case clear, cloudy, overcast, rain, snow, storm, fog, sunset, night
    case milkyWay = "milky-way"

    /// Whether the preset is a night without clouds (the real night sky of a date).
    public var isNight: Bool { self == .night || self == .milkyWay }

    /// What the preset shows, for `welkin new --help` and the scene's description.
    public var summary: String {
        switch self {
        case .clear: return "fair-weather cumulus in a blue afternoon sky, the sun 28° up"
        case .cloudy: return "broken cumulus over half the sky, the sun breaking through"
        case .overcast: return "a closed grey stratus deck"
        case .rain: return "a low rain deck and rain at three depths"
        case .snow: return "a grey snow deck and snow at three depths"
        case .storm: return "a cumulonimbus deck, wind-driven rain and lightning"
        case .fog: return "ground fog, 150 m visibility (the sun a pale disc)"
        case .sunset: return "the sun 2° above the horizon behind scattered cumulus, gold on their sunward side"
        case .night: return "a clear moonlit night over Paris, 10 January 2025 at 21:30: the gibbous Moon high in the south beside Jupiter, the real stars"
        case .milkyWay: return "a moonless August night on La Palma, 2 400 m up, at 23:00: the Milky Way rising from Sagittarius in the south-southwest to Cygnus overhead, the real stars"
        }
    }

    /// The camera for a `size` frame: (degrees across, pitch up).
    public static func camera(for size: SIMD2<Int>) -> (fieldOfView: Int, pitch: Int) {
        let aspect = Double(size.x) / Double(max(size.y, 1))
        let degrees = Double.pi / 180
        // Portrait: ~100° from top to bottom; landscape: 90° across (less for a squarish frame).
        let across = aspect < 1 ? 2 * atan(tan(50 * degrees) * aspect) : min(90 * degrees, 2 * atan(tan(40 * degrees) * aspect))
        // (1…170°: what a rectilinear camera takes, however narrow the frame.)
        let fieldOfView = min(max(Int((across / degrees).rounded()), 1), 170)
        // The horizon 0.64 of the half-height below the centre: 82 % of the way down.
        let halfHeight = atan(tan(Double(fieldOfView) * degrees / 2) / aspect)
        let pitch = Int((atan(0.64 * tan(halfHeight)) / degrees).rounded())
        return (fieldOfView, pitch)
    }

    /// The scene file's text for a `size` frame (pixels = points).
    public func json(size: SIMD2<Int>) -> String {
        let (fieldOfView, pitch) = Self.camera(for: size)
        let kind = size.x < size.y ? "phone" : "wide"
        let name = self == .milkyWay ? "Milky Way" : rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        var weather = rawValue
        var yaw = 150
        var sky = #"{"type": "sky", "model": "physical", "sunElevation": 28, "sunAzimuth": 160}"#
        var clouds: String? = #"{"type": "clouds"}"#
        switch self {
        case .sunset:
            weather = "clear"
            yaw = 245
            sky = #"{"type": "sky", "model": "physical", "sunElevation": 2, "sunAzimuth": 250}"#
            clouds = #"{"type": "clouds", "cloudType": "cumulus", "coverage": 0.3}"#
        case .night:
            weather = "clear"
            yaw = 160
            sky = #"{"type": "sky", "model": "physical", "date": "2025-01-10T21:30:00+01:00", "latitude": 48.8566, "longitude": 2.3522}"#
            clouds = nil
        case .milkyWay:
            weather = "clear"
            yaw = 180
            sky = #"{"type": "sky", "model": "physical", "date": "2025-08-23T23:00:00+01:00", "latitude": 28.76, "longitude": -17.88, "atmosphere": {"altitude": 2400}}"#
            clouds = nil
        default: break
        }
        let description = "Made by welkin new --preset \(rawValue) --size \(size.x)x\(size.y): \(summary), on a \(size.x)×\(size.y) "
            + "\(kind == "phone" ? "portrait " : "")screen through a rectilinear camera \(fieldOfView)° across, tilted \(pitch)° up. "
            + "Change the weather (\"weather\"), the sun (\"sunElevation\", \"sunAzimuth\", or a \"date\" with \"latitude\" and \"longitude\") "
            + "and the view (\"camera\"): docs/sky.md."
        let layers = [sky] + (clouds.map { [$0] } ?? [])
        return """
        {
          "name": \(JSONValue.quoted("\(name) (\(kind))")),
          "description": \(JSONValue.quoted(description)),
          "size": [\(size.x), \(size.y)],
          "weather": "\(weather)",
          "camera": {"projection": "rectilinear", "fieldOfView": \(fieldOfView), "pitch": \(pitch), "yaw": \(yaw)},
          "layers": [
            \(layers.joined(separator: ",\n    "))
          ]
        }

        """
    }
}
