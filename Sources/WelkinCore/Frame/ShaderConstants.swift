// The constants Swift and GLSL share, defined once here in Swift and handed to every shader as a
// prelude of `#define`s (after `#version`, before the pass's own defines). No .glsl file repeats
// one of these values: WelkinGLTests' ShaderTwinTests fail when one does, or when a shader
// defines one of these names itself.

/// The generated `#define` prelude.
public enum ShaderConstants {
    /// Name and GLSL text of every shared constant, in a stable order.
    public static let defines: [(name: String, value: String)] = {
        var d: [(String, String)] = []
        func int(_ name: String, _ v: Int32) { d.append((name, String(v))) }
        func uint(_ name: String, _ v: UInt32) { d.append((name, "0x" + String(v, radix: 16) + "u")) }
        func float(_ name: String, _ v: Float) { d.append((name, glsl(v))) }

        // Codes (uniforms and per-instance values carry these).
        for space in ColorSpace.allCases { int("COLOR_SPACE_\(snake(space.rawValue))", space.code) }
        int("GRADIENT_LINEAR", GradientDraw.Kind.linear.rawValue)
        int("GRADIENT_RADIAL", GradientDraw.Kind.radial.rawValue)
        int("GRADIENT_ANGULAR", GradientDraw.Kind.angular.rawValue)
        for kind in SpriteKind.allCases { int("SPRITE_\(snake(kind.rawValue))", kind.code) }
        int("SKY_PART_SKY", SkyPart.skyCode)
        int("SKY_PART_COVER", SkyPart.coverCode)
        int("SKY_PART_SPRITES", SkyPart.spritesCode)
        int("SKY_PART_PHYSICAL", SkyPart.physicalCode)
        for map in ToneMap.allCases { int("TONE_MAP_\(snake(map.rawValue))", map.code) }
        int("OUTPUT_SPACE_SRGB", OutputColorSpace.srgb.code)
        int("OUTPUT_SPACE_DISPLAY_P3", OutputColorSpace.displayP3.code)
        for kind in CloudSpritesLayer.Kind.allCases { int("CLOUD_\(snake(kind.rawValue))", kind.code) }
        for kind in SkyProjection.Kind.allCases { int("PROJECTION_\(snake(String(describing: kind)))", kind.rawValue) }

        // Limits (uniform array lengths).
        int("MAXIMUM_STOPS", Int32(Gradient.maximumStops))
        int("MAX_CLOUDS", Int32(CloudSpritesLayer.maximumCount))
        int("BOLT_MAIN", Int32(CloudsDraw.boltMain))
        int("BOLT_VERTICES", Int32(CloudsDraw.boltVertices))
        int("MAXIMUM_BLUR_TAPS", Int32(ShadowDraw.maximumTaps))
        int("SKY_VIEW_WIDTH", Int32(SkyViewTable.width))
        int("SKY_VIEW_HEIGHT", Int32(SkyViewTable.height))

        // Hashing.
        uint("HASH_MULTIPLIER_1", Noise.hashMultiplier1)
        uint("HASH_MULTIPLIER_2", Noise.hashMultiplier2)
        uint("SEQUENCE_STEP", Noise.sequenceStep)
        uint("OCTAVE_KEY_STEP", Noise.octaveKeyStep)
        uint("LATTICE_X", Noise.latticeX)
        uint("LATTICE_Y", Noise.latticeY)

        // Sprite geometry.
        float("FLAKE_ARM_WIDTH", SpriteShape.flakeArmWidth)
        float("BLUR_REACH", SpriteShape.blurReach)
        float("PI", Float.pi)
        float("OUTPUT_SNAP", ColorMath.outputSnap)
        let p3 = ColorMath.srgbToDisplayP3Columns
        d.append(("OUTPUT_SRGB_TO_DISPLAY_P3", "mat3(" + [p3.0, p3.1, p3.2].flatMap { [$0.x, $0.y, $0.z] }.map(glsl).joined(separator: ", ") + ")"))
        float("AGX_MINIMUM_EV", ToneMapping.agxMinimumEV)
        float("AGX_MAXIMUM_EV", ToneMapping.agxMaximumEV)
        float("AGX_LOOK_POWER", ToneMapping.agxLookPower)
        float("NEUTRAL_START_COMPRESSION", ToneMapping.neutralStartCompression)
        float("NEUTRAL_OFFSET", ToneMapping.neutralOffset)
        float("AGX_LOOK_SATURATION", ToneMapping.agxLookSaturation)
        d.append(("CUMULUS_PUFFS", array("vec3", CloudSpritesDraw.cumulusPuffs.map { [$0.x, $0.y, $0.z] })))
        d.append(("CIRRUS_STREAKS", array("vec4", CloudSpritesDraw.cirrusStreaks.map { [$0.x, $0.y, $0.z, $0.w] })))
        int("NIGHT_ENTRIES_WIDTH", Int32(NightSkyDraw.entriesWidth))
        int("MOON_MARIA_COUNT", Int32(NightSkyDraw.maria.count))
        int("NIGHT_GLOW_SAMPLES", Int32(NightGlow.samples))
        float("ZODIACAL_STEP", PhysicalSkyDraw.zodiacalStep)
        int("ZODIACAL_COLUMNS", Int32(PhysicalSkyDraw.zodiacalColumns))
        d.append(("SCOTOPIC_TINT", "vec3(" + [PhysicalSkyDraw.scotopicTint.x, PhysicalSkyDraw.scotopicTint.y, PhysicalSkyDraw.scotopicTint.z].map(glsl).joined(separator: ", ") + ")"))
        d.append(("MOON_MARIA_CENTERS", array("vec4", NightSkyDraw.mariaCenters.map { [$0.x, $0.y, $0.z, $0.w] })))
        d.append(("MOON_MARIA_SHAPES", array("vec2", NightSkyDraw.mariaShapes.map { [$0.x, $0.y] })))
        float("SKY_GROUND_FADE", SkyGround.fadeDegrees)
        // Clouds.
        float("CLOUD_CURVATURE", CloudsDraw.curvature)
        d.append(("CLOUD_BAYER", "float[16](" + CloudsDraw.bayer4.map(glsl).joined(separator: ", ") + ")"))
        d.append(("CLOUD_LIGHT_SAMPLES", array("vec2", CloudsDraw.lightSamples.map { [$0.x, $0.y] })))
        float("CLOUD_EDGE", CloudsDraw.edgeSharpness)
        float("CLOUD_DETAIL_SCALE", CloudsDraw.detailScale)
        d.append(("CLOUD_DETAIL_OFFSET", "vec3(" + [CloudsDraw.detailOffset.x, CloudsDraw.detailOffset.y, CloudsDraw.detailOffset.z].map(glsl).joined(separator: ", ") + ")"))
        d.append(("CLOUD_EROSION_RANGE", "vec2(" + [CloudsDraw.erosionRange.x, CloudsDraw.erosionRange.y].map(glsl).joined(separator: ", ") + ")"))
        float("CLOUD_EROSION", CloudsDraw.erosion)
        let r = CloudsDraw.reliefFrequencies
        d.append(("CLOUD_RELIEF", "vec4(" + [r.x, r.y, r.z, r.w].map(glsl).joined(separator: ", ") + ")"))
        int("CLOUD_SHAFT_SAMPLES", Int32(CloudsDraw.shaftSamples))
        float("CLOUD_SHAFT_NEAR", CloudsDraw.shaftNear)
        d.append(("CLOUD_SHAFT_JITTER", "float[4](" + CloudsDraw.shaftJitter.map(glsl).joined(separator: ", ") + ")"))
        return d
    }()

    /// The prelude as GLSL text.
    public static var prelude: String { defines.map { "#define \($0.name) \($0.value)\n" }.joined() }

    /// A float as a GLSL literal that parses to the same float: Swift's shortest round-trip text,
    /// with a decimal point.
    public static func glsl(_ v: Float) -> String {
        let text = "\(v)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    static func array(_ type: String, _ rows: [[Float]]) -> String {
        "\(type)[\(rows.count)](" + rows.map { "\(type)(" + $0.map(glsl).joined(separator: ", ") + ")" }.joined(separator: ", ") + ")"
    }

    /// `linearSRGB` → `LINEAR_SRGB`, `softDot` → `SOFT_DOT`.
    static func snake(_ camel: String) -> String {
        var out = ""
        let chars = Array(camel)
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0, !chars[i - 1].isUppercase { out += "_" }
            out += c.uppercased()
        }
        return out
    }
}
