// Shadertoy's inputs as Welkin feeds them to a `shader` layer: the uniforms' names and meanings
// (docs/shaders.md, "Shadertoy shaders") and the values Welkin works out itself (iDate).
// Shaders/shadertoy.glsl declares the uniforms for a `mainImage` shader; UserShaderPass sets them.

import Foundation

/// The Shadertoy uniforms, and how Welkin maps its own frame onto them.
public enum Shadertoy {
    /// The uniforms Shadertoy declares for an image shader, set whenever a shader declares them
    /// (a `mainImage` shader gets all of them from Welkin's prelude).
    public static let uniforms: [(name: String, type: String, meaning: String)] = [
        ("iResolution", "vec3", "render size in pixels; z = 1 (square pixels)"),
        ("iTime", "float", "scene time in seconds (as u_time)"),
        ("iTimeDelta", "float", "1/60 s: Welkin's frame step, headless and in the viewer alike"),
        ("iFrameRate", "float", "60"),
        ("iFrame", "int", "frame number (as u_frame: the viewer's counter; headless, floor(time × 60))"),
        ("iMouse", "vec4", "xy: the mouse in pixels, origin bottom-left (as u_mouse; 0 headless); zw: 0 (no clicks)"),
        ("iDate", "vec4", "year, month − 1, day, seconds of the day: the sky's clock, or 2000-01-01 00:00 UTC + scene time"),
        ("iSampleRate", "float", "44100"),
        ("iChannel0", "sampler2D", "the layer's channels[0] image (black when not given); likewise iChannel1…3"),
        ("iChannel1", "sampler2D", "channels[1]"),
        ("iChannel2", "sampler2D", "channels[2]"),
        ("iChannel3", "sampler2D", "channels[3]"),
        ("iChannelResolution", "vec3[4]", "each channel's image size in pixels, z = 1 (0 when not given)"),
        ("iChannelTime", "float[4]", "0: images do not play"),
    ]

    /// How many input channels a shader layer has (iChannel0…3).
    public static let channelCount = 4
    /// Welkin's frame rate for `iFrameRate` and `iTimeDelta` (= 1 / this): the headless frame step.
    /// The viewer's real frame time is not used, so a frame number means the same picture everywhere.
    public static let frameRate = 60.0
    /// `iSampleRate`: Shadertoy's sound sample rate (Welkin plays no sound, but shaders read it).
    public static let sampleRate = 44_100.0
    /// The clock `iDate` reads when the scene has no sky with a date: 2000-01-01T00:00:00Z at scene
    /// time 0. Never the wall clock, so a render is the same picture on every run.
    public static let fixedDate = Timestamp(unixSeconds: 946_684_800, offsetSeconds: 0)

    /// `iDate` at scene time `time`: year, month − 1 (0 = January, as JavaScript's getMonth and so
    /// Shadertoy), day of the month (1…31), seconds since local midnight, from the sky's clock in
    /// the date's own UTC offset; or from `fixedDate` + `time` when there is no dated sky.
    public static func date(sky: SkyState?, time: Double) -> SIMD4<Double> {
        let clock = sky?.clock ?? fixedDate.adding(seconds: time.isFinite ? time : 0)
        // Bounded (±300 000 years) so the calendar arithmetic stays in range for any scene time.
        let local = min(max(clock.unixSeconds + Double(clock.offsetSeconds), -1e13), 1e13)
        let days = (local / 86_400).rounded(.down)
        let (year, month, day) = Timestamp.civilFromDays(Int(days))
        return SIMD4(Double(year), Double(month - 1), Double(day), local - days * 86_400)
    }
}

/// Shadertoy's keyboard texture: 256 columns (JavaScript key codes), three rows — row 0 255 while
/// the key is held, row 1 255 on the frame it went down, row 2 toggled by each press.
public struct ShadertoyKeyboard: Sendable, Equatable {
    /// Row-major, 256 × 3 bytes.
    public private(set) var texels = [UInt8](repeating: 0, count: 256 * 3)

    public init() {}

    /// The state after a frame in which the keys `held` (key codes) are down: a key down now and
    /// not before is pressed this frame and flips its toggle.
    public mutating func update(held: Set<Int>) {
        for code in 0..<256 {
            let down = held.contains(code)
            let was = texels[code] != 0
            texels[code] = down ? 255 : 0
            texels[256 + code] = down && !was ? 255 : 0
            if down && !was { texels[512 + code] = texels[512 + code] == 0 ? 255 : 0 }
        }
    }

    public func isHeld(_ code: Int) -> Bool { (0..<256).contains(code) && texels[code] != 0 }
}

/// Shadertoy's iMouse from the viewer's mouse: while the left button is held, xy follow the pointer
/// and zw hold where it went down (w positive only on that first frame); once released, xy stay
/// where the pointer was last dragged and z turns negative. Pixels, origin bottom-left.
public struct ShadertoyMouse: Sendable, Equatable {
    public private(set) var value: SIMD4<Float> = .zero
    private var wasDown = false

    public init() {}

    /// The state after a frame with the pointer at `position` and the button `down`.
    public mutating func update(position: SIMD2<Float>, down: Bool) {
        if down {
            if !wasDown {
                value = SIMD4(position.x, position.y, position.x, position.y)
            } else {
                value = SIMD4(position.x, position.y, abs(value.z), -abs(value.w))
            }
        } else if wasDown {
            value.z = -abs(value.z)
            value.w = -abs(value.w)
        }
        wasDown = down
    }
}
