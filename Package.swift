// swift-tools-version:5.9
// Welkin: animated sky scenes, previewed in OpenGL and proven against a CPU reference renderer.
import PackageDescription

let package = Package(
    name: "Welkin",
    products: [
        .executable(name: "welkin", targets: ["welkin"]),
        .library(name: "WelkinCore", targets: ["WelkinCore"]),
        .library(name: "WelkinReference", targets: ["WelkinReference"]),
    ],
    targets: [
        // System libraries from Debian's -dev packages.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CEpoxy", path: "Sources/CEpoxy", pkgConfig: "epoxy",
                       providers: [.apt(["libepoxy-dev"])]),
        .systemLibrary(name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
                       providers: [.apt(["libglfw3-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),

        // Scene model, colour, gradients, Frame. Foundation only.
        .target(name: "WelkinCore"),
        // CPU reference renderer, Image, PNG, comparison.
        .target(name: "WelkinReference", dependencies: ["WelkinCore", "CPNG"]),
        // OpenGL: contexts (EGL headless, GLFW windows), shaders, GPU passes, readback.
        // Sources/WelkinGL/Shaders is a symlink to the top-level Shaders/ (one copy of the sources);
        // .process follows it and copies the files flat into the bundle (.copy would copy the link).
        .target(name: "WelkinGL", dependencies: ["WelkinCore", "WelkinReference", "CEpoxy", "CGLFW"],
                resources: [.process("Shaders")]),
        // cairo drawing the same things, as the outside baseline for tests and `welkin bench`.
        .target(name: "WelkinBaselines", dependencies: ["WelkinCore", "WelkinReference", "CCairo"]),
        // The plain C particle loop `welkin bench` measures the Swift simulation against (always -O3).
        .target(name: "CSimBaseline", cSettings: [.unsafeFlags(["-O3"])]),
        // The command line.
        .executableTarget(name: "welkin", dependencies: ["WelkinCore", "WelkinReference", "WelkinGL", "WelkinBaselines", "CCairo", "CSimBaseline"]),
        // The libFuzzer target (make fuzz: built with -sanitize=fuzzer -D WELKIN_FUZZ into .build/fuzz);
        // in an ordinary build, a tool that replays inputs through the same pipeline.
        .executableTarget(name: "WelkinFuzz", dependencies: ["WelkinCore", "WelkinReference"]),

        .testTarget(name: "WelkinCoreTests", dependencies: ["WelkinCore"]),
        .testTarget(name: "WelkinReferenceTests", dependencies: ["WelkinReference", "WelkinBaselines", "CCairo"]),
        .testTarget(name: "WelkinGLTests", dependencies: ["WelkinGL", "WelkinReference", "WelkinBaselines", "CCairo"]),
        .testTarget(name: "EndToEndTests", dependencies: ["WelkinReference"]),
    ]
)
