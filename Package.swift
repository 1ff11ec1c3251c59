// swift-tools-version:6.0
// Welkin: animated sky scenes, previewed in OpenGL and proven against a CPU reference renderer.
import PackageDescription

let package = Package(
    name: "Welkin",
    products: [
        .executable(name: "welkin", targets: ["welkin"]),
        .library(name: "WelkinCore", targets: ["WelkinCore"]),
        .library(name: "WelkinText", targets: ["WelkinText"]),
        .library(name: "WelkinImage", targets: ["WelkinImage"]),
        .library(name: "WelkinReference", targets: ["WelkinReference"]),
        .library(name: "WelkinGL", targets: ["WelkinGL"]),
        .library(name: "WelkinExport", targets: ["WelkinExport"]),
        .library(name: "WelkinImport", targets: ["WelkinImport"]),
    ],
    targets: [
        // System libraries from Debian's -dev packages.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CEpoxy", path: "Sources/CEpoxy", pkgConfig: "epoxy",
                       providers: [.apt(["libepoxy-dev"])]),
        .systemLibrary(name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
                       providers: [.apt(["libglfw3-dev"])]),
        // glibc's malloc.h (mallopt), for the command line's heap settings.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        // Dear ImGui 1.86 with its GLFW and OpenGL 3 backends (a static library; C++ only).
        .systemLibrary(name: "CImGui", path: "Sources/CImGui", pkgConfig: "imgui",
                       providers: [.apt(["libimgui-dev", "libstb-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        // OpenEXR's C library (OpenEXRCore): scene-linear EXR output.
        .systemLibrary(name: "COpenEXR", path: "Sources/COpenEXR", pkgConfig: "OpenEXR",
                       providers: [.apt(["libopenexr-dev"])]),

        // Little CMS: the ICC profiles PNGs carry (iCCP), Display P3's and sRGB's.
        .systemLibrary(name: "CLittleCMS", path: "Sources/CLittleCMS", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),

        // ERFA 2.0.0, the BSD-licensed edition of the IAU's SOFA library: precession-nutation, the Moon,
        // the planets. The C files Welkin calls, vendored by Scripts/vendor-erfa.py; a package that
        // `export-code --package` writes carries the same folder, so both compute with the same code.
        .target(name: "CERFA", exclude: ["LICENSE", "README.md"], cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        // Text: fonts by file or family (fontconfig), shaping (HarfBuzz), glyph coverage (FreeType)
        // in one atlas per layout. Knows nothing of scenes; WelkinCore resolves text layers with it.
        .target(name: "WelkinText", dependencies: ["CFreeType", "CHarfBuzz", "CFontconfig"]),

        // Where the running welkin finds its run-time files: a build's resource bundles, or PREFIX/share/welkin
        // for an installed PREFIX/bin/welkin (`make install`).
        .target(name: "WelkinResources"),

        // The physical sky's atmosphere and its look-up tables: pure maths, no scenes. Optimised even in
        // debug builds (the tables are seconds of work unoptimised, and tests draw physical skies).
        .target(name: "WelkinAtmosphere", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The night sky's ephemeris: the Hipparcos stars (Data/stars.bin), the Moon and the planets for a date and
        // place, through ERFA. Optimised in debug builds too (a frame turns thousands of stars).
        .target(name: "WelkinAstronomy", dependencies: ["CERFA", "WelkinResources"], exclude: ["Data/README.md"],
                resources: [.copy("Data/stars.bin"), .copy("Data/vsop87.bin"), .copy("Data/milkyway.bin")], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Scene model, colour, gradients, Frame. Foundation, WelkinText for text layers, WelkinAtmosphere for the physical
        // sky, WelkinAstronomy for the night sky. Optimised in debug builds too: a module built without optimisation
        // hands no inlinable bodies on, so the reference's per-pixel loops would call its unoptimised maths (the
        // clouds' march ran 15× slower in the tests).
        // The sky's model as values and its per-frame draws: sky and clouds layers, the weather, the sun,
        // the physical sky, the night sky and the clouds' light (no scene decoding, no text, no GL): the
        // part of a scene an exported package computes on the device. Optimised in debug builds too
        // (the reference's per-pixel sky and clouds maths live here).
        .target(name: "WelkinSkyModel", dependencies: ["WelkinAtmosphere", "WelkinAstronomy"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "WelkinCore", dependencies: ["WelkinText", "WelkinAtmosphere", "WelkinAstronomy", "WelkinSkyModel"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Image, PNG read/write (libpng; 16-bit and the colour chunks through zlib), ICC profiles (Little CMS)
        // and the sprite image cache both renderers share.
        .target(name: "WelkinImage", dependencies: ["WelkinCore", "CPNG", "COpenEXR", "CZlib", "CLittleCMS"]),
        // CPU reference renderer and image comparison. Optimised in debug builds too: its per-pixel loops
        // (with WelkinCore's inlinable per-pixel maths specialised into them) are most of the tests' time.
        .target(name: "WelkinReference", dependencies: ["WelkinCore", "WelkinImage"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // `welkin export-code`: a scene as SwiftUI or Core Animation source, and (--package) its shader layers as
        // Metal compiled from the programs WelkinGL draws them with (their sources and uniform values, GLCapture).
        .target(name: "WelkinExport", dependencies: ["WelkinCore", "WelkinGL", "WelkinImage", "WelkinAtmosphere", "WelkinResources", "CZlib"]),
        // `welkin import`: Particle Designer (.plist) and Starling (.pex) effects as emitter scenes.
        .target(name: "WelkinImport", dependencies: ["WelkinCore", "CZlib"]),
        // The `ffmpeg` program as an encoder of raw RGBA frames: `welkin export` and viewer recording.
        .target(name: "WelkinVideo"),
        // OpenGL: contexts (EGL headless, GLFW windows), shaders, GPU passes, readback.
        // Sources/WelkinGL/Shaders is a symlink to the top-level Shaders/ (one copy of the sources);
        // .process follows it and copies the files flat into the bundle (.copy would copy the link).
        .target(name: "WelkinGL", dependencies: ["WelkinCore", "WelkinImage", "WelkinText", "WelkinResources", "CEpoxy", "CGLFW"],
                resources: [.process("Shaders")]),
        // The viewer's panel calls as plain C functions over Dear ImGui (C++): the only user of CImGui.
        .target(name: "WelkinPanelShim", dependencies: ["CImGui"]),
        // The application around a window: keys, console, panel, hot reload (the file watcher), the title.
        .target(name: "WelkinViewer", dependencies: ["WelkinCore", "WelkinImage", "WelkinGL", "WelkinVideo", "WelkinPanelShim", "CEpoxy", "CGLFW"]),
        // cairo drawing the same things, as the outside baseline for tests and `welkin bench`.
        .target(name: "WelkinBaselines", dependencies: ["WelkinCore", "WelkinImage", "CCairo"]),
        // The plain C particle loop `welkin bench` measures the Swift simulation against (always -O3).
        .target(name: "CSimBaseline", cSettings: [.unsafeFlags(["-O3"])]),
        // The command line. The cairo and C baselines are linked here for `welkin bench` only.
        .executableTarget(name: "welkin", dependencies: ["WelkinCore", "WelkinAstronomy", "WelkinImage", "WelkinReference", "WelkinGL", "WelkinViewer",
                                                         "WelkinExport", "WelkinImport", "WelkinVideo", "WelkinBaselines", "CCairo", "CSimBaseline",
                                                         "CEpoxy", "CMalloc"]),
        // The libFuzzer target (make fuzz: built with -sanitize=fuzzer -D WELKIN_FUZZ into .build/fuzz);
        // in an ordinary build, a tool that replays inputs through the same pipeline.
        .executableTarget(name: "WelkinFuzz", dependencies: ["WelkinCore", "WelkinReference"]),

        // Helpers every test target shares (checkout paths, scene errors, the shared GL context).
        .target(name: "WelkinTestSupport", dependencies: ["WelkinCore", "WelkinGL", "WelkinImage", "WelkinReference"], path: "Tests/WelkinTestSupport"),
        // The brute-force atmosphere (test only): Monte Carlo through the spherical shell, the physical sky's
        // check. Optimised even in debug builds, so `make test` can afford its coarse grid.
        .target(name: "WelkinSkyCheck", path: "Tests/WelkinSkyCheck", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .testTarget(name: "WelkinCoreTests", dependencies: ["WelkinCore", "WelkinTestSupport", "WelkinSkyCheck"]),
        // The ephemeris against skyfield with JPL DE421 (PyPI), an independent reference.
        .testTarget(name: "WelkinAstronomyTests", dependencies: ["WelkinAstronomy", "CERFA", "WelkinResources", "WelkinTestSupport"]),
        // Shaping and glyph coverage against HarfBuzz's clusters and Pillow's FreeType rendering.
        .testTarget(name: "WelkinTextTests", dependencies: ["WelkinText", "WelkinTestSupport"]),
        // Type-checks exported code against stubs of Apple's API (Tests/Fixtures/AppleAPIStubs).
        .testTarget(name: "WelkinExportTests", dependencies: ["WelkinExport", "WelkinImage", "WelkinTestSupport"]),
        // Imported effects: their particles' statistics (KS tests); their GPU = CPU parity is in WelkinGLTests.
        .testTarget(name: "WelkinImportTests", dependencies: ["WelkinImport", "WelkinCore", "WelkinTestSupport"]),
        .testTarget(name: "WelkinReferenceTests", dependencies: ["WelkinReference", "WelkinImage", "WelkinBaselines", "CCairo", "WelkinTestSupport"]),
        .testTarget(name: "WelkinGLTests", dependencies: ["WelkinGL", "WelkinAstronomy", "WelkinImport", "WelkinImage", "WelkinReference", "WelkinBaselines", "CCairo", "WelkinTestSupport"]),
        .testTarget(name: "WelkinViewerTests", dependencies: ["WelkinViewer", "WelkinGL", "WelkinCore", "WelkinTestSupport"]),
        // Depends on the `welkin` product so a plain `swift test` never runs a stale binary.
        .testTarget(name: "EndToEndTests", dependencies: ["WelkinImage", "WelkinReference", "welkin", "WelkinTestSupport", "WelkinResources"]),
    ]
)
