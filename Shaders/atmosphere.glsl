// atmosphere.glsl: the physical sky per pixel, mirroring WelkinSkyModel's PhysicalSkyDraw
// (Sources/WelkinSkyModel/Sky/PhysicalSkyDraw.swift) line for line: the sky-view table (built in Swift,
// SkyViewTable.swift) read with the same bilinear arithmetic through texelFetch (the sampler's own
// filtering saved 4 ms of 26 at 720p on llvmpipe but strayed 3/255 from the CPU; on GPUs with
// 8-bit filter weights it would stray further), the Mie phase at
// the pixel's own angle to the sun, the limb-darkened disc, exposure and the tone curve.
// Included by sky.glsl when the program draws a physical part (SKY_HAS_PHYSICAL).

#include "tonemap.glsl"

// The tone map (ToneMap.code) and whether the sky writes scene-linear light: constants of the draw,
// compiled in (SkyPass.Variant), so llvmpipe runs one tone map, not every branch of applyToneMap.
#if !defined(WELKIN_TONE_MAP) || !defined(WELKIN_PHYSICAL_LINEAR)
#error the physical sky is built with WELKIN_TONE_MAP and WELKIN_PHYSICAL_LINEAR (SkyPass.Variant)
#endif

flat in PhysicalValues physical;
// SKY_VIEW_WIDTH × 2·SKY_VIEW_HEIGHT RGBA32F texels on texture unit 1; the Moon's table on unit 4.
uniform sampler2D u_skyView;
#ifdef WELKIN_MOONLIGHT
uniform sampler2D u_moonView;
#endif
#if defined(WELKIN_NIGHT_GLOW) && WELKIN_NIGHT_GLOW
// NightGlow: the night's own light at elevations 90°·(k/16)², and the ground's (PhysicalSkyDraw.nightGlow).
uniform vec3 u_nightGlow[NIGHT_GLOW_SAMPLES];
uniform vec3 u_nightGlowGround;

// NightGlow.sample: linear between the samples, the ground's below the horizon.
vec3 nightGlow(float el, float horizon) {
    if (el < horizon) return u_nightGlowGround;
    float x = sqrt(max(el, 0.0) * (1.0 / 90.0)) * float(NIGHT_GLOW_SAMPLES - 1);
    int k = min(int(x), NIGHT_GLOW_SAMPLES - 2);
    float f = x - float(k);
    return u_nightGlow[k] + (u_nightGlow[k + 1] - u_nightGlow[k]) * f;
}
#endif

#if defined(WELKIN_MILKY_WAY) && WELKIN_MILKY_WAY
// The Milky Way (PhysicalSkyDraw.milkyWay): MilkyWayMap's texels as RGBA8 on unit 5, filtered
// bilinearly, repeating in l and clamped at the poles (llvmpipe's 8-bit fast path: one filtered
// read of an RGB32F map cost about 3 ms a 720p frame, of this one 1.5); the rows turning a horizon
// direction into galactic, and its light at the glow's elevations.
uniform sampler2D u_milkyWay;
uniform vec3 u_galactic[3];
uniform vec3 u_milkyWayLight[NIGHT_GLOW_SAMPLES];

// PhysicalSkyDraw.milkyWay: the band's radiance looking at azimuth az, elevation of sine s and
// cosine c (el degrees, for the air's dimming), read in galactic (l, b).
vec3 milkyWay(float az, float s, float c, float el, float horizon) {
    float azr = az * (PI / 180.0);
    vec3 d = vec3(c * sin(azr), c * cos(azr), s);
    vec3 g0 = u_galactic[0], g1 = u_galactic[1], g2 = u_galactic[2];
    float gx = g0.x * d.x + g0.y * d.y + g0.z * d.z;
    float gy = g1.x * d.x + g1.y * d.y + g1.z * d.z;
    float gz = g2.x * d.x + g2.y * d.y + g2.z * d.z;
    float l = atan(gy, gx) * (180.0 / PI);
    if (l < 0.0) l = l + 360.0;
    float b = asin(min(max(gz, -1.0), 1.0)) * (180.0 / PI);
    vec3 v = texture(u_milkyWay, vec2(l * (1.0 / 360.0), (90.0 - b) * (1.0 / 180.0))).xyz;
    vec3 m = v * v;
    // NightGlow.sample over milkyWayLight (no ground: the caller keeps the band above the horizon).
    vec3 light = vec3(0.0);
    if (!(el < horizon)) {
        float xs = sqrt(max(el, 0.0) * (1.0 / 90.0)) * float(NIGHT_GLOW_SAMPLES - 1);
        int k = min(int(xs), NIGHT_GLOW_SAMPLES - 2);
        float f = xs - float(k);
        light = u_milkyWayLight[k] + (u_milkyWayLight[k + 1] - u_milkyWayLight[k]) * f;
    }
    return m * light;
}
#endif

#if defined(WELKIN_ZODIACAL) && WELKIN_ZODIACAL
// The zodiacal light (PhysicalSkyDraw.zodiacal): its panorama (PhysicalSkyDraw.zodiacalPanorama,
// Leinert et al.'s Table 17 at every ZODIACAL_STEP° of azimuth and each of the glow's elevations)
// as RGBA32F on unit 6, ZODIACAL_COLUMNS × NIGHT_GLOW_SAMPLES texels, read through the texture
// unit's bilinear filter at texel centres' coordinates (clamped; one filtered read cost llvmpipe
// about 1.5 ms a 720p frame, four texelFetch reads 3.5–4.5).
uniform sampler2D u_zodiacal;

// PhysicalSkyDraw.zodiacal: the zodiacal light looking at azimuth az and elevation el (degrees).
vec3 zodiacal(float az, float el, float horizon) {
    if (el < horizon) return vec3(0.0);
    float a = az - 360.0 * floor(az * (1.0 / 360.0));
    float u = a * (1.0 / ZODIACAL_STEP);
    float x = sqrt(max(el, 0.0) * (1.0 / 90.0)) * float(NIGHT_GLOW_SAMPLES - 1);
    return texture(u_zodiacal, vec2((u + 0.5) * (1.0 / float(ZODIACAL_COLUMNS)), (x + 0.5) * (1.0 / float(NIGHT_GLOW_SAMPLES)))).xyz;
}
#endif

vec3 skyViewSample(sampler2D table, float x, float y, int rowOffset) {
#if defined(WELKIN_SKY_VIEW_FILTERED) && WELKIN_SKY_VIEW_FILTERED
    // The texture unit's bilinear filter (SkyPass.Variant.filteredTables): the same four texels
    // and weights in one read, texel (i, j)'s centre at ((i + ½) / W, (j + ½) / 2H). On GPUs whose
    // filter weights have 8 bits, within 1/512 of a step between neighbouring texels of the CPU's.
    return texture(table, vec2((x + 0.5) * (1.0 / float(SKY_VIEW_WIDTH)),
                               (y + float(rowOffset) + 0.5) * (1.0 / float(2 * SKY_VIEW_HEIGHT)))).xyz;
#else
    int x0 = min(max(int(floor(x)), 0), SKY_VIEW_WIDTH - 2);
    int y0 = min(max(int(floor(y)), 0), SKY_VIEW_HEIGHT - 2);
    float fx = x - float(x0), fy = y - float(y0);
    vec4 t00 = texelFetch(table, ivec2(x0, y0 + rowOffset), 0);
    vec4 t10 = texelFetch(table, ivec2(x0 + 1, y0 + rowOffset), 0);
    vec4 t01 = texelFetch(table, ivec2(x0, y0 + 1 + rowOffset), 0);
    vec4 t11 = texelFetch(table, ivec2(x0 + 1, y0 + 1 + rowOffset), 0);
    vec4 top = t00 + (t10 - t00) * fx;
    vec4 bottom = t01 + (t11 - t01) * fx;
    vec4 c = top + (bottom - top) * fy;
    return c.xyz;
#endif
}

// PhysicalSkyDraw.scatteredFrom: a table's A plus its B times the Mie phase at nu, for light
// from sourceAzimuth (PhysicalSkyDraw.scattered is the Sun's table).
vec3 scatteredFrom(sampler2D table, float sourceAzimuth, float az, float el, float nu) {
    float relative = az - sourceAzimuth;
    relative = relative - 360.0 * floor(relative * (1.0 / 360.0) + 0.5);
    relative = abs(relative);
    float x = relative * (float(SKY_VIEW_WIDTH - 1) / 180.0);
    float h = physical.horizonElevation;
    float v;
    if (el >= h) {
        v = 0.5 - 0.5 * sqrt((el - h) / (90.0 - h));
    } else {
        v = 0.5 + 0.5 * sqrt((h - el) / (90.0 + h));
    }
    float y = v * float(SKY_VIEW_HEIGHT - 1);
    vec3 a = skyViewSample(table, x, y, 0);
    vec3 b = skyViewSample(table, x, y, SKY_VIEW_HEIGHT);
    float g = physical.mieG;
    float k = 1.0 + g * g - 2.0 * g * nu;
    float miePhase = physical.mieScale * (1.0 + nu * nu) / (k * sqrt(k));
    return a + b * miePhase;
}


#if defined(WELKIN_SCOTOPIC) && WELKIN_SCOTOPIC
// PhysicalSkyDraw.rodShift: the colour mixed by share toward its scotopic luminance in a blue-grey.
vec3 rodShift(vec3 c, float share) {
    float x = 0.4124 * c.x + 0.3576 * c.y + 0.1805 * c.z;
    float y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z;
    float z = 0.0193 * c.x + 0.1192 * c.y + 0.9505 * c.z;
    float v = x > 0.0 ? max(y * (1.33 * (1.0 + (y + z) / x) - 1.68), 0.0) * (1.0 / 2.58) : 0.0;
    return c + (SCOTOPIC_TINT * v - c) * share;
}
#endif

#if defined(WELKIN_SUN_GLARE) && WELKIN_SUN_GLARE
// PhysicalSkyDraw.sunGlare (irradiance × exposure × sunGlare) and glarePSF: CIE 146:2002's
// disability glare, sr⁻¹, θ degrees from the sun.
uniform vec3 u_sunGlare;
float glarePSF(float theta) {
    float inverse = 1.0 / theta;
    return 10.0 * inverse * inverse * inverse + (5.0 * inverse * inverse + 0.05 * inverse) * 1.0256 + 0.00125;
}
#endif

#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG
// Ground fog (PhysicalSkyDraw.fogs): its optical depth up from the eye and down to the ground,
// its phase function's g; its ambient light and the direct sun's (1 − g²)/4π, × exposure.
uniform vec3 u_fog;
uniform vec3 u_fogAmbient;
uniform vec3 u_fogSun;
// The eye's adaptation to the fog's colour (PhysicalSkyDraw.fogBalance).
uniform vec3 u_fogBalance;

// PhysicalSkyDraw.fogTransmittance: e^(−τ) looking at elevation seen (degrees).
float fogTransmittance(float seen) {
    float s = sin(seen * (PI / 180.0));
    float tau;
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 1
    tau = u_fog.x / max(s, 1e-6);
#else
    if (s >= 0.0) {
        tau = u_fog.x / max(s, 1e-6);
    } else {
        tau = u_fog.y / max(-s, 1e-6);
    }
#endif
    return exp(-tau);
}

// PhysicalSkyDraw.fogLight: the fog's radiance × exposure whose cosine to the sun is nu.
vec3 fogLight(float nu) {
    float g = u_fog.z;
    float k = 1.0 + g * g - 2.0 * g * nu;
    return u_fogAmbient + u_fogSun * (1.0 / (k * sqrt(k)));
}
#endif

vec4 physicalColor(vec2 p) {
    float az = physical.viewAzimuth + (p.x - physical.centerX) * physical.degreesPerPixel;
    float el = (physical.horizonY - p.y) * physical.degreesPerPixel;
    if (el > 90.0) { el = 180.0 - el; az = az + 180.0; }
    if (el < -90.0) { el = -180.0 - el; az = az + 180.0; }
    el = min(max(el, -90.0), 90.0);
    // The elevation looked at; `el` is the one the air's light is read at.
    float seen = el;
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND != 0
    // No ground of the model's: the horizon's light continues below it.
    float under = physical.horizonElevation - seen;
    el = max(el, physical.horizonElevation);
#endif
    float elr = el * (PI / 180.0);
    float ce = cos(elr);
    float nu = min(max(sin(elr) * physical.sunSine + ce * physical.sunCosine * cos((az - physical.sunAzimuth) * (PI / 180.0)), -1.0), 1.0);
    vec3 radiance = scatteredFrom(u_skyView, physical.sunAzimuth, az, el, nu);
#ifdef WELKIN_MOONLIGHT
    if (physical.moonSkyScale > 0.0) {
        // Moonlight in the air: the same table lookup toward the Moon, scaled by its irradiance.
        float nuMoon = min(max(sin(elr) * physical.moonSine + ce * physical.moonCosine * cos((az - physical.moonAzimuth) * (PI / 180.0)), -1.0), 1.0);
        radiance = radiance + scatteredFrom(u_moonView, physical.moonAzimuth, az, el, nuMoon) * physical.moonSkyScale;
    }
#endif
    float h = physical.horizonElevation;
#if defined(WELKIN_NIGHT_GLOW) && WELKIN_NIGHT_GLOW
    radiance = radiance + nightGlow(el, h);
#endif
#if defined(WELKIN_MILKY_WAY) && WELKIN_MILKY_WAY
    // The band above the horizon (none on the ground, as the stars).
    radiance = radiance + milkyWay(az, sin(elr), ce, el, h) * clamp01((seen - h) / physical.pixelAngle + 0.5);
#endif
#if defined(WELKIN_ZODIACAL) && WELKIN_ZODIACAL
    // The zodiacal light above the horizon, as the band.
    radiance = radiance + zodiacal(az, el, h) * clamp01((seen - h) / physical.pixelAngle + 0.5);
#endif
#if defined(WELKIN_SCOTOPIC) && WELKIN_SCOTOPIC
    radiance = rodShift(radiance, physical.scotopic);
#endif
    // PhysicalSkyDraw.sunDistance: the angle to the sun, measured in the picture's metric at the sun.
    float up = 2.0 * sin((el - physical.sunElevation) * (PI / 360.0));
    float east = 2.0 * sin((az - physical.sunAzimuth) * (PI / 360.0)) * sqrt(max(ce * physical.sunCosine, 0.0));
    vec3 metric = physical.sunMetric;
    float chord = metric.x * east * east + 2.0 * metric.y * east * up + metric.z * up * up;
    float distance = sqrt(max(chord, 0.0)) * (180.0 / PI);
    float cover = clamp01((physical.sunRadius - distance) / physical.pixelAngle + 0.5) * clamp01((seen - h) / physical.pixelAngle + 0.5);
    vec3 night = vec3(0.0);
#if defined(WELKIN_NIGHT) && WELKIN_NIGHT == SKY_PART_PHYSICAL
    {
        // The Moon in front of the sun (an eclipse) and the stars; neither below the horizon.
        vec4 moon = nightMoonColor(p);
        float above = clamp01((seen - h) / physical.pixelAngle + 0.5);
        float hidden = 1.0 - moon.w * above;
        cover = cover * hidden;
        night = (nightStarLight(p) * hidden + moon.xyz) * above;
    }
#endif
    if (cover > 0.0) {
        float rr = min(distance / physical.sunRadius, 1.0);
        float limb = 1.0 - 0.6 * (1.0 - sqrt(1.0 - rr * rr));
        radiance = radiance * physical.exposure + physical.sunRadiance * (limb * cover);
    } else {
        radiance = radiance * physical.exposure;
    }
#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG
    // Ground fog in front of it all; the glare is the eye's, after it.
    float fogT = fogTransmittance(seen);
    vec3 fogColor = fogLight(nu);
    radiance = radiance * u_fogBalance * fogT + fogColor * (1.0 - fogT);
    night = night * fogT;
#endif
#if defined(WELKIN_SUN_GLARE) && WELKIN_SUN_GLARE
    radiance = radiance + u_sunGlare * glarePSF(max(distance, physical.sunRadius));
#endif
    radiance = radiance + night;
#if WELKIN_PHYSICAL_LINEAR
    vec3 c = radiance + vec3(physical.flash);
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 2
#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG
    vec3 ground = u_groundColor * fogT + fogColor * (1.0 - fogT);
    // In fog (which is the haze) the ground begins at the horizon's pixel (PhysicalSkyDraw.groundFade).
    c = c + (ground - c) * clamp01(under / physical.pixelAngle + 0.5);
#else
    c = c + (u_groundColor - c) * smoothUnit(under * (1.0 / SKY_GROUND_FADE));
#endif
#endif
    return vec4(c * physical.opacity, physical.opacity);
#else
#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG && defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 2
    // One tone map a pixel: the fog's light where only the colour ground shows (it is mixed with
    // the ground below), the fogged sky elsewhere (in the horizon's one-pixel band the fog hides all
    // but e^(−τ) of the sky, τ in the tens, so that is the fog's own display colour there too).
    float groundShare = clamp01(under / physical.pixelAngle + 0.5);
    vec3 mapped = applyToneMap(WELKIN_TONE_MAP, groundShare >= 1.0 ? fogColor : radiance);
    vec3 rgb = mapped;
#else
    vec3 rgb = applyToneMap(WELKIN_TONE_MAP, radiance);
#endif
#if !defined(WELKIN_PHYSICAL_STARS) || WELKIN_PHYSICAL_STARS
    // WELKIN_PHYSICAL_STARS 0 compiles the star field out by day (llvmpipe would run it: 6 ms at 720p).
    if (physical.stars.x > 0.0 && seen > 0.0) {
        vec3 starLight = starField(p, physical.inverseStarCell, physical.stars.y, physical.seed, physical.pixelsPerPoint, physical.time)
            * (physical.stars.x * smoothUnit(seen * 0.2));
#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG
        starLight = starLight * fogT;
#endif
        rgb = rgb + starLight;
    }
#endif
    rgb = rgb + vec3(physical.flash);
#if defined(WELKIN_SKY_GROUND) && WELKIN_SKY_GROUND == 2
    // A colour ground is display colour: seen through the fog, mixed with the fog's display colour.
#if defined(WELKIN_SKY_FOG) && WELKIN_SKY_FOG
    vec3 ground = u_groundColor * fogT + mapped * (1.0 - fogT);
    rgb = rgb + (ground - rgb) * groundShare;
#else
    rgb = rgb + (u_groundColor - rgb) * smoothUnit(under * (1.0 / SKY_GROUND_FADE));
#endif
#endif
    vec3 clamped = clamp(rgb, 0.0, 1.0);
    return vec4(encodeSRGBUnit(clamped) * physical.opacity, physical.opacity);
#endif
}
