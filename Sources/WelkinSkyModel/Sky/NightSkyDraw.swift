// The night sky in pixels: catalogue stars and planets as point-spread functions binned into a
// grid of cells, and the Moon as a lit sphere with its maria, terminator, earthshine and limb.
//
// Mirrored line for line by Shaders/night.glsl. Everything per frame (which stars, where, how
// bright after extinction, twinkle and visibility) is decided here in Double when the Frame is
// built; per pixel there is only float arithmetic over the pixel's cell.

import Foundation
import WelkinAtmosphere

public struct NightSkyDraw: Sendable, Equatable {
    // The view: pixel → direction, the panorama the sky parts share (azimuth = viewAzimuth +
    // (x − centerX)·dpp, elevation = (horizonY − y)·dpp).
    public var viewAzimuth: Float
    public var centerX: Float
    public var horizonY: Float
    public var degreesPerPixel: Float
    /// Degrees one output pixel spans (the point spread and the Moon's edge are this wide).
    public var pixelAngle: Float

    /// The star grid over view pixels: cell (i, j) covers origin + [i, i+1)·cell × [j, j+1)·cell.
    public var gridOrigin: SIMD2<Float>
    public var inverseCell: Float
    public var gridSize: SIMD2<Int32>
    /// Per cell (row-major): the first entry and how many.
    public var cells: [SIMD2<UInt32>]
    /// Two texels per entry: (x, y, kx, ky) and (r, g, b, reach): the point at (x, y) view pixels
    /// adds rgb · (e^(−q) + haloRatio · e^(−q/16)), q = kx dx² + ky dy², out to q < reach. In the
    /// panorama's own picture kx = ky (round there); drawn through a projection (a camera, an
    /// environment map) kx = ky cos² e at the point's elevation e, so it is round in the sky and in a
    /// camera's picture, not stretched along the azimuth as the panorama stretches the sky toward
    /// the zenith (short dashes near the top of a phone's view before).
    public var entries: [SIMD4<Float>]
    /// The halo's peak over the core's (haloFraction over 16 of its width²).
    public var haloRatio: Float = 0

    /// 1 when the Moon is drawn.
    public var moonVisible: Int32
    /// The Moon's centre (degrees), cos of its elevation and 1 / its radius (degrees).
    public var moonAzimuth: Float
    public var moonElevation: Float
    public var moonCosElevation: Float
    public var moonInverseRadius: Float
    /// The Sun's direction in the disc's frame (x along increasing azimuth, y up, z toward the viewer).
    public var moonSun: SIMD3<Float>
    /// Rows turning the disc's frame into the Moon's face (x toward Mare Crisium, y lunar north, z toward the Earth).
    public var moonFaceX: SIMD3<Float>
    public var moonFaceY: SIMD3<Float>
    public var moonFaceZ: SIMD3<Float>
    /// The full Moon's centre radiance through the air (× exposure), and the earthshine's fraction of it.
    public var moonRadiance: SIMD3<Float>
    public var earthshine: Float
    /// The palette's glow around the Moon, linear light (zero in the physical sky, whose air
    /// scatters the moonlight itself).
    public var moonGlow: SIMD3<Float>
    /// The Moon's illuminated fraction (0 new … 1 full), for what it lights (clouds); the
    /// shaders do not read it.
    public var moonIlluminated: Float = 0

    /// Whether anything shows: points in the grid, the Moon, or its glow (a night sky with none is
    /// left out of the frame).
    public var isEmpty: Bool { entries.isEmpty && moonVisible == 0 && moonGlow == .zero }

    /// The most entries one cell holds (its brightest).
    public static let maximumPerCell = 48
    /// The point spread: a core Gaussian of σ = 0.6 output pixels and a halo four times as wide
    /// holding 2.5 % of the light; both are cut at three halo σ.
    public static let coreSigma = 0.6
    public static let haloFraction = 0.025
    /// On screen a point's light is drawn out to where it falls below this (its brightest channel,
    /// in the display-linear light the sky adds it in): near black a 30th of an 8-bit level after
    /// the sRGB encoding's slope of 12.92.
    public static let faintest = 1e-5

    /// How far (view pixels) a point of core peak `peak` reaches: where peak × (e^(−r²k) +
    /// halo e^(−r²k/16)) falls below `faintest` — the core's reach, or the halo's where it is wider —
    /// at most `cutoff` (three halo σ); 0 for a point fainter than that everywhere.
    public static func reach(peak: Double, k: Double, halo: Double, cutoff: Double) -> Double {
        guard peak > faintest, k > 0 else { return 0 }
        let core = log(peak / faintest) / k
        let wide = peak * halo > faintest ? 16 * log(peak * halo / faintest) / k : 0
        return min(max(core, wide).squareRoot(), cutoff)
    }

    /// Through a projection a point is at most this many times wider (in view pixels) than tall:
    /// cos e clamped at 1/widest (within 1.1° of the zenith), which bounds the cells it spans.
    public static let widest = 50.0

    /// Cells are this many output pixels square.
    public static let cellPixels = 6.0
    /// The entries texture's width (texels); an entry's two texels share a row.
    public static let entriesWidth = 1024
    /// V magnitude of the Sun (the unit of the physical sky's radiance is its irradiance).
    public static let sunMagnitude = -26.74
    /// Maria of the near side: latitude, longitude (selenographic, east toward Crisium), angular
    /// radius (degrees) and how much darker (negative: brighter, Tycho's rays).
    public static let maria: [SIMD4<Float>] = [
        SIMD4(28, -50, 18, 0.38), SIMD4(5, -60, 17, 0.38), SIMD4(33, -16, 17, 0.42), SIMD4(28, 17, 11, 0.42),
        SIMD4(8.5, 31, 12, 0.44), SIMD4(17, 59, 8, 0.45), SIMD4(-8, 51, 10, 0.36), SIMD4(-15, 35, 5.5, 0.36),
        SIMD4(-21, -17, 11, 0.33), SIMD4(-24, -39, 6.5, 0.38), SIMD4(56, -15, 7, 0.30), SIMD4(57, 12, 6, 0.30),
        SIMD4(-10, -23, 6, 0.30), SIMD4(13, 4, 4, 0.30), SIMD4(7, -31, 8, 0.28), SIMD4(-43, -11, 3, -0.35),
    ]
    /// Face-frame unit vectors of the maria's centres and the cosines of their radii; and each
    /// one's edge sharpness (its edge is about 9° wide on the Moon) and darkening.
    public static let mariaCenters: [SIMD4<Float>] = maria.map { m in
        let lat = Double(m.x) * .pi / 180, lon = Double(m.y) * .pi / 180
        return SIMD4(Float(cos(lat) * sin(lon)), Float(sin(lat)), Float(cos(lat) * cos(lon)), Float(cos(Double(m.z) * .pi / 180)))
    }
    public static let mariaShapes: [SIMD2<Float>] = maria.map { m in
        SIMD2(Float(1 / (sin(Double(m.z) * .pi / 180) * 0.16)), m.w * 0.85)
    }

    /// How the view's light is scaled: the physical sky's exposure and its air, or the palette's
    /// display-referred fade.
    public enum Light {
        /// Radiance × exposure; transmittance toward an elevation; the sky's own luminance at an
        /// azimuth and elevation (for the limiting magnitude). `white`: on screen, the tone
        /// curve's white (the Moon is held below it and stars get the eye's gain); nil for
        /// scene-linear output (radiance as it is).
        /// `nightExposure`: the exposure `"auto"` settles on at night, at which stars on screen look
        /// as the palette's do.
        case physical(exposure: Double, nightExposure: Double, transmittance: (Double) -> SIMD3<Double>,
                      skyLuminance: (Double, Double) -> Double, white: Double?)
        /// Palette: night 0…1 (the stars' fade).
        case palette(night: Double)
    }

    public init(_ sky: NightSky, state: SkyState, layer: SkyLayer, light: Light, time: Double,
                pixelSize: SIMD2<Int>, pixelAngle outputAngle: Double, panorama: Bool, pointScale: Double = 1) {
        let dpp = state.degreesPerPixel(width: pixelSize.x)
        viewAzimuth = Float(state.viewAzimuth)
        centerX = Float(pixelSize.x) / 2
        horizonY = Float(state.horizon * Double(pixelSize.y))
        degreesPerPixel = Float(dpp)
        pixelAngle = Float(outputAngle)
        // Points are sized in points (output pixels per point, at least 1): `--scale 3` and a 3×
        // screen draw the same picture with three times the pixels a side.
        let points = pointScale.isFinite ? max(pointScale, 1) : 1
        let toView = outputAngle / dpp
        let cell = Self.cellPixels * toView * points
        // The region the frame evaluates, in view pixels: the frame, or the whole sphere.
        let cx = Double(pixelSize.x) / 2, hy = state.horizon * Double(pixelSize.y)
        let low = panorama ? SIMD2(cx - 180 / dpp, hy - 90 / dpp) : SIMD2(0.0, 0.0)
        let high = panorama ? SIMD2(cx + 180 / dpp, hy + 90 / dpp) : SIMD2(Double(pixelSize.x), Double(pixelSize.y))
        let columns = max(Int(((high.x - low.x) / cell).rounded(.up)), 1)
        let rows = max(Int(((high.y - low.y) / cell).rounded(.up)), 1)
        gridOrigin = SIMD2<Float>(low)
        inverseCell = Float(1 / cell)
        gridSize = SIMD2(Int32(columns), Int32(rows))

        // Each point's light: flux (sun units) through the air, twinkling, faded by visibility.
        let sigma = Self.coreSigma * toView * points
        let haloSigma = 4 * sigma
        let cutoff = 3 * haloSigma
        // A point's radiance: its irradiance over the core's 2πσ² view pixels of solid angle each;
        // on screen over reference pixels scaled with the output's, so a star looks the same at any
        // field of view.
        let viewPixelSolidAngle = pow(dpp * .pi / 180, 2)
        let screenPixelSolidAngle = Self.referencePixelSolidAngle / (toView * toView * points * points)
        let k = 1 / (2 * sigma * sigma)
        let haloRatio = Self.haloFraction / (1 - Self.haloFraction) / 16
        let weather = state.weather.parameters.starVisibility
        let brightness = layer.starBrightness
        struct Item { var x, y: Double; var rgb: SIMD3<Double>; var peak: Double; var squeeze: Double }
        var items: [Item] = []
        items.reserveCapacity(sky.points.count)
        for point in sky.points {
            guard point.elevation > NightSky.lowestElevation else { continue }
            var d = point.azimuth - state.viewAzimuth
            d -= 360 * (d / 360 + 0.5).rounded(.down)
            let x = cx + d / dpp, y = hy - point.elevation / dpp
            guard x > low.x - cutoff, x < high.x + cutoff, y > low.y - cutoff, y < high.y + cutoff else { continue }
            // Visibility first: most of a twilight's stars stop here.
            var visible: Double
            switch light {
            case .physical(_, _, _, let skyLuminance, _):
                // The physical sky's luminance includes the night's own glow (NightGlow).
                let m = Self.limitingMagnitude(skyLuminance(point.azimuth, point.elevation), naturalBackground: false)
                visible = Self.smooth(m - point.magnitude + 0.5)
            case .palette(let night):
                // The palette's fade: the brightest stars first as the night deepens.
                let m = -1.5 + 8 * night
                visible = Self.smooth(m - point.magnitude + 0.5) * night
            }
            visible *= weather * Self.smooth((point.elevation + 1) * 0.5)
            guard visible > 0 else { continue }
            let flux = pow(10, -0.4 * (point.magnitude - Self.sunMagnitude))
            let airmass = Self.airmass(elevation: point.elevation)
            let twinkle = 1 + Self.scintillation(airmass: airmass) * Self.twinkle(id: point.id, time: time)
            // On screen star colours are softened toward white (the eye sees them weakly at night);
            // scene-linear output keeps the blackbody's.
            let color = StarColor.rgb(colorIndex: point.colorIndex)
            var screen = true
            if case .physical(_, _, _, _, nil) = light { screen = false }
            var rgb = (screen ? 1 + (color - 1) * Self.screenSaturation : color) * flux * twinkle * brightness
            let solidAngle: Double
            switch light {
            case .physical(let exposure, let nightExposure, let transmittance, _, let white):
                rgb *= transmittance(point.elevation) * exposure
                if white != nil { rgb *= Self.displayGain / nightExposure }
                solidAngle = white != nil ? screenPixelSolidAngle : viewPixelSolidAngle
            case .palette:
                rgb *= Self.paletteTransmittance(airmass: airmass) * Self.displayGain
                solidAngle = screenPixelSolidAngle
            }
            // The core's peak: (1 − halo) / (2πσ²) of the light, over each pixel's solid angle.
            rgb *= visible * (1 - Self.haloFraction) / (2 * .pi * sigma * sigma * solidAngle)
            // Through a projection, round in the sky: an azimuth step spans cos e of a degree there
            // (at most `widest` times the point's height in view pixels, near the zenith).
            let squeeze = panorama ? max(cos(point.elevation * .pi / 180), 1 / Self.widest) : 1
            items.append(Item(x: x, y: y, rgb: rgb, peak: rgb.max(), squeeze: squeeze))
            // A panorama wraps at 180° from the view's azimuth: a point near that seam is drawn on
            // both sides of it, so its light is not cut in half.
            if panorama {
                let turn = 360 / dpp
                let across = cutoff / squeeze
                if x - across < low.x { items.append(Item(x: x + turn, y: y, rgb: rgb, peak: rgb.max(), squeeze: squeeze)) }
                if x + across > high.x { items.append(Item(x: x - turn, y: y, rgb: rgb, peak: rgb.max(), squeeze: squeeze)) }
            }
        }
        // Brightest first, so a full cell keeps its brightest; ties by position (deterministic).
        items.sort { $0.peak != $1.peak ? $0.peak > $1.peak : ($0.x, $0.y) < ($1.x, $1.y) }
        var perCell = [[Int32]](repeating: [], count: columns * rows)
        // Each point's own reach (Self.reach): a faint star's light falls below `faintest` well
        // inside the three halo σ a bright one needs, so it sits in fewer cells and every pixel
        // loops over fewer entries. On screen only: scene-linear output (EXR) keeps the physical
        // units, where no level is a fixed fraction of white, and every point its three halo σ.
        var displayed = true
        if case .physical(_, _, _, _, nil) = light { displayed = false }
        let reaches = items.map { displayed ? Self.reach(peak: $0.peak, k: k, halo: haloRatio, cutoff: cutoff) : cutoff }
        for (n, item) in items.enumerated() {
            let reach = reaches[n]
            guard reach > 0 else { continue }
            let across = reach / item.squeeze
            let x0 = max(Int(((item.x - across - low.x) / cell).rounded(.down)), 0)
            let x1 = min(Int(((item.x + across - low.x) / cell).rounded(.down)), columns - 1)
            let y0 = max(Int(((item.y - reach - low.y) / cell).rounded(.down)), 0)
            let y1 = min(Int(((item.y + reach - low.y) / cell).rounded(.down)), rows - 1)
            guard x0 <= x1, y0 <= y1 else { continue }
            for j in y0...y1 { for i in x0...x1 where perCell[j * columns + i].count < Self.maximumPerCell { perCell[j * columns + i].append(Int32(n)) } }
        }
        var cells: [SIMD2<UInt32>] = []
        cells.reserveCapacity(columns * rows)
        var entries: [SIMD4<Float>] = []
        for list in perCell {
            cells.append(SIMD2(UInt32(entries.count / 2), UInt32(list.count)))
            for n in list {
                let item = items[Int(n)]
                entries.append(SIMD4(Float(item.x), Float(item.y), Float(k * item.squeeze * item.squeeze), Float(k)))
                entries.append(SIMD4(Float(item.rgb.x), Float(item.rgb.y), Float(item.rgb.z), Float(k * reaches[Int(n)] * reaches[Int(n)])))
            }
        }
        self.cells = cells
        self.entries = entries
        self.haloRatio = Float(haloRatio)

        // The Moon.
        moonVisible = 0
        moonAzimuth = 0; moonElevation = 0; moonCosElevation = 1; moonInverseRadius = 1
        moonSun = .zero; moonFaceX = .zero; moonFaceY = .zero; moonFaceZ = .zero
        moonRadiance = .zero; earthshine = 0; moonGlow = .zero
        guard let moon = sky.moon, moon.elevation > -moon.radius - 1 else { return }
        moonVisible = 1
        moonIlluminated = Float(moon.illuminatedFraction)
        moonAzimuth = Float(moon.azimuth)
        moonElevation = Float(moon.elevation)
        moonCosElevation = Float(cos(moon.elevation * .pi / 180))
        moonInverseRadius = Float(1 / moon.radius)
        var latitude = 0.0
        if case .computed(_, let l, _, _) = layer.sun { latitude = l }
        let frame = Self.moonFrame(moon, latitude: latitude)
        moonSun = SIMD3<Float>(frame.sun)
        moonFaceX = SIMD3<Float>(frame.face.0); moonFaceY = SIMD3<Float>(frame.face.1); moonFaceZ = SIMD3<Float>(frame.face.2)
        // Earthshine: the Earth seen from the Moon is full when the Moon is new.
        earthshine = Float(0.0015 * (1 - cos(moon.phaseAngle * .pi / 180)) / 2)
        let tint = StarColor.rgb(colorIndex: 0.92)
        switch light {
        case .physical(let exposure, _, let transmittance, _, let white):
            var c = Self.fullMoonRadiance * tint * transmittance(moon.elevation) * exposure
            // On screen the Moon is exposed for itself, as the eye adapts to it: its brightest
            // channel at most 1.5 (or 0.8 of the curve's white), below the tone curve's shoulder,
            // so its maria keep their contrast.
            let cap = white.map { min(0.8 * $0, 1.5) }
            if let cap, c.max() > cap { c *= cap / c.max() }
            moonRadiance = SIMD3<Float>(c)
        case .palette(let night):
            let air = Self.paletteTransmittance(airmass: Self.airmass(elevation: moon.elevation))
            moonRadiance = SIMD3<Float>(tint / tint.max() * air * (0.3 + 0.6 * night))
            moonGlow = SIMD3<Float>(SIMD3(0.55, 0.62, 0.8) * (0.35 * moon.illuminatedFraction * night) * air)
        }
    }

    /// The full Moon's mean radiance at its disc's centre, in the Sun's irradiance per steradian:
    /// V −12.73 (Allen) over the disc's 6.43·10⁻⁵ sr at its mean distance, with this file's
    /// reflectance averaging 0.917 over the full disc.
    public static let fullMoonRadiance = pow(10, -0.4 * (-12.73 - sunMagnitude)) / (6.43e-5 * 0.917)

    /// The solid angle of a pixel of the default view (100° over 1280 pixels), steradians.
    public static let referencePixelSolidAngle: Double = (100.0 / 1280 * Double.pi / 180) * (100.0 / 1280 * Double.pi / 180)
    /// Stars on screen: with this gain a magnitude-0 star's core peaks at 8 in linear light (a
    /// magnitude-6 star's at 0.03, just visible), in the palette sky and in the physical sky under
    /// the night's exposure, which scales it like the sky (by day stars are thousands of times
    /// fainter and hidden). The eye sees a point source brighter than a camera's pixel spreads it;
    /// `starBrightness` multiplies this. Scene-linear output keeps the radiance as it is.
    public static let displayGain = 1.76e6

    /// How much of a star's colour shows on screen.
    public static let screenSaturation = 0.6

    /// Kasten & Young (1989) air mass at an apparent elevation (degrees).
    public static func airmass(elevation e: Double) -> Double {
        let h = max(e, -1)
        return 1 / (sin(h * .pi / 180) + 0.50572 * pow(h + 6.07995, -1.6364))
    }

    /// The palette's extinction: 0.13, 0.20, 0.33 magnitudes per air mass in R, G, B (a clear site).
    public static func paletteTransmittance(airmass x: Double) -> SIMD3<Double> {
        SIMD3(pow(10, -0.4 * 0.13 * x), pow(10, -0.4 * 0.20 * x), pow(10, -0.4 * 0.33 * x))
    }

    /// Scintillation's depth: small overhead, growing with air mass (as Young's law, ∝ X^1.75), capped.
    public static func scintillation(airmass x: Double) -> Double { min(0.04 * pow(x, 1.75), 0.5) }

    /// A star's twinkle at a time: −1…1, the sum of two sines of frequencies and phases hashed from
    /// its identity (deterministic for scene + time).
    public static func twinkle(id: Int, time: Double) -> Double {
        let h = Noise.hash32(UInt32(truncatingIfNeeded: id) &* 0x9e37_79b9)
        let h2 = Noise.hashNext(h), h3 = Noise.hashNext(h2), h4 = Noise.hashNext(h3)
        let f1 = 1.3 + 2.2 * Double(Noise.unit(h)), f2 = 3.1 + 3.4 * Double(Noise.unit(h2))
        let p1 = Double(Noise.unit(h3)), p2 = Double(Noise.unit(h4))
        let t = time.isFinite ? time.truncatingRemainder(dividingBy: 3600) : 0
        return 0.6 * sin(2 * .pi * (f1 * t + p1)) + 0.4 * sin(2 * .pi * (f2 * t + p2))
    }

    /// The naked-eye limiting magnitude against a sky of luminance `y` (the Sun's irradiance per
    /// steradian): the sky as V magnitudes per square arcsecond, with the natural night sky's
    /// 21.8 added when y leaves it out (`naturalBackground`), through Schaefer's (1990) fit
    /// m = 7.93 − 5 log₁₀(10^(4.316 − B/5) + 1).
    public static func limitingMagnitude(_ y: Double, naturalBackground: Bool = true) -> Double {
        let arcsecond = pow(Double.pi / (180 * 3600), 2)
        let modelled = max(y, 0) * arcsecond
        let floor = naturalBackground ? pow(10, -0.4 * (21.8 - sunMagnitude)) : 1e-40
        let b = sunMagnitude - 2.5 * log10(modelled + floor)
        return 7.93 - 5 * log10(pow(10, 4.316 - b / 5) + 1)
    }

    /// The Moon's disc frame (x along increasing azimuth, y up, z toward the viewer): the Sun's
    /// direction in it, and the rows that turn it into the Moon's face.
    static func moonFrame(_ moon: NightSky.Moon, latitude: Double) -> (sun: SIMD3<Double>, face: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) {
        let e = moon.elevation * .pi / 180, a = moon.azimuth * .pi / 180
        let m = SIMD3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
        let u = SIMD3(cos(a), -sin(a), 0.0)
        let v = SIMD3(-sin(e) * sin(a), -sin(e) * cos(a), cos(e))
        let w = -m
        // Celestial north and east on the sky at the Moon: toward the pole, and north × m.
        let phi = latitude * .pi / 180
        let pole = SIMD3(0, cos(phi), sin(phi))
        let north = normalize(pole - m * (pole * m).sum())
        let east = cross(north, m)
        // The Sun from the Moon: at position angle χ (from north through east), tipped toward the viewer by the phase.
        let i = moon.phaseAngle * .pi / 180, chi = moon.brightLimbAngle * .pi / 180
        let s = (north * cos(chi) + east * sin(chi)) * sin(i) + w * cos(i)
        func local(_ x: SIMD3<Double>) -> SIMD3<Double> { SIMD3((x * u).sum(), (x * v).sum(), (x * w).sum()) }
        // The face: lunar north ≈ celestial north (the Moon's axis and librations, a few degrees, left out);
        // selenographic east (Crisium) is on the sky's west side.
        return (local(s), (local(-east), local(north), local(w)))
    }

    static func smooth(_ x: Double) -> Double { let t = min(max(x, 0), 1); return t * t * (3 - 2 * t) }
    static func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Linear light of the stars and planets at view pixel p (night.glsl's nightStarLight).
    @inlinable public func nightStarLight(_ p: SIMD2<Float>) -> SIMD3<Float> {
        let gx = (p.x - gridOrigin.x) * inverseCell
        let gy = (p.y - gridOrigin.y) * inverseCell
        if !(gx >= 0 && gy >= 0 && gx < Float(gridSize.x) && gy < Float(gridSize.y)) { return .zero }
        let cx = Int32(gx.rounded(.down)), cy = Int32(gy.rounded(.down))
        let cell = cells[Int(cy * gridSize.x + cx)]
        var light = SIMD3<Float>.zero
        var n: UInt32 = 0
        while n < cell.y {
            let e = Int(cell.x + n) * 2
            let a = entries[e], b = entries[e + 1]
            let dx = p.x - a.x, dy = p.y - a.y
            let q = a.z * dx * dx + a.w * dy * dy
            if q < b.w {
                let core = exp(-q)
                let halo = exp(-q * (1.0 / 16.0))
                light = light + SIMD3(b.x, b.y, b.z) * (core + haloRatio * halo)
            }
            n += 1
        }
        return light
    }

    /// The palette's glow around the Moon at view pixel p (night.glsl's nightMoonGlow).
    @inlinable public func nightMoonGlow(_ p: SIMD2<Float>) -> SIMD3<Float> {
        let az = viewAzimuth + (p.x - centerX) * degreesPerPixel
        let el = (horizonY - p.y) * degreesPerPixel
        var da = az - moonAzimuth
        da = da - 360 * (da * (1.0 / 360.0) + 0.5).rounded(.down)
        let dx = da * moonCosElevation, dy = el - moonElevation
        let d2 = dx * dx + dy * dy
        return moonGlow * (0.6 / (1 + d2 * (1.0 / 64.0)) + 0.4 / (1 + d2 * (1.0 / 4.0)))
    }

    /// The Moon at view pixel p: premultiplied light (rgb × cover) and its cover (night.glsl's nightMoonColor).
    @inlinable public func nightMoonColor(_ p: SIMD2<Float>) -> SIMD4<Float> {
        if moonVisible == 0 { return .zero }
        let az = viewAzimuth + (p.x - centerX) * degreesPerPixel
        let el = (horizonY - p.y) * degreesPerPixel
        var da = az - moonAzimuth
        da = da - 360 * (da * (1.0 / 360.0) + 0.5).rounded(.down)
        let u = da * moonCosElevation * moonInverseRadius
        let v = (el - moonElevation) * moonInverseRadius
        let r2 = u * u + v * v
        let cover = clamp01((1 - r2.squareRoot()) / (pixelAngle * moonInverseRadius) + 0.5)
        if !(cover > 0) { return .zero }
        let w = max(1 - r2, 0).squareRoot()
        let mu0 = u * moonSun.x + v * moonSun.y + w * moonSun.z
        let lit = max(mu0, 0)
        // Lommel–Seeliger (a flat full Moon) with a quarter of Lambert (its limb darkening).
        let reflectance = 0.75 * (2 * lit / (lit + w + 0.001)) + 0.25 * lit
        let fx = u * moonFaceX.x + v * moonFaceX.y + w * moonFaceX.z
        let fy = u * moonFaceY.x + v * moonFaceY.y + w * moonFaceY.z
        let fz = u * moonFaceZ.x + v * moonFaceZ.y + w * moonFaceZ.z
        var dark: Float = 0
        for m in Self.mariaCenters.indices {
            let c = Self.mariaCenters[m]
            let d = fx * c.x + fy * c.y + fz * c.z
            let shape = Self.mariaShapes[m]
            dark = dark + shape.y * smoothUnit((d - c.w) * shape.x)
        }
        let albedo = 1 - min(max(dark, -0.35), 0.6)
        let light = moonRadiance * (albedo * (reflectance + earthshine * w))
        return SIMD4(light * cover, cover)
    }
}

extension NightSkyDraw {
    /// A night sky in this view that draws nothing: one empty cell, no points, no Moon.
    public init(viewAzimuth: Float, centerX: Float, horizonY: Float, degreesPerPixel: Float, pixelAngle: Float) {
        self.viewAzimuth = viewAzimuth; self.centerX = centerX; self.horizonY = horizonY
        self.degreesPerPixel = degreesPerPixel; self.pixelAngle = pixelAngle
        gridOrigin = .zero; inverseCell = 0; gridSize = SIMD2(1, 1); cells = [.zero]; entries = []
        moonVisible = 0; moonAzimuth = 0; moonElevation = 0; moonCosElevation = 1; moonInverseRadius = 0
        moonSun = .zero; moonFaceX = .zero; moonFaceY = .zero; moonFaceZ = .zero; moonRadiance = .zero
        earthshine = 0; moonGlow = .zero
    }
}
