// Why a part of a sky layer is not in the picture now, for a disabled line under the layer's
// properties in the panel: computed from the same SkyState the Frame draws from (WelkinCore), so
// the note and the picture cannot disagree.

import Foundation
import WelkinCore

enum SkyNotes {
    /// The sun elevation (degrees) below which a layer's stars begin to show: −6° for the palette
    /// sky and the hashed field (NightSky, PhysicalSkyDraw), 0° for the catalogue in the physical
    /// sky (its limiting magnitude does the rest).
    static func starsBelow(_ layer: SkyLayer) -> Double {
        layer.model == .physical && layer.effectiveStarSource == .catalog ? 0 : -6
    }

    /// The notes for `layer` of `scene` at scene time `time`: one short line per hidden part (the
    /// panel does not wrap them).
    static func notes(for layer: SkyLayer, in scene: Scene, time: Double) -> [String] {
        let state = SkyState(layer: layer, time: time, weather: WeatherState(scene.weather, time: time, seed: scene.seed), night: true)
        var notes: [String] = []
        let sun = String(format: "%.1f°", state.sunElevation)
        if layer.stars {
            let below = starsBelow(layer)
            if state.sunElevation >= below {
                notes.append("Stars: only with the sun below \(below < 0 ? "−" : "")\(Int(abs(below)))° (now \(sun))")
            } else if state.weather.parameters.starVisibility <= 0 {
                notes.append("Stars: hidden by the weather")
            }
        }
        if layer.moon, case .computed = layer.sun {
            if let moon = state.night?.moon, moon.elevation < -moon.radius {
                notes.append("Moon: below the horizon (\(String(format: "%.1f°", moon.elevation)))")
            }
        }
        return notes
    }
}
