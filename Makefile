# Welkin: set-up, build, test and run in one command each, on a fresh Debian machine.
#
#   make run    install what is missing, build, open the viewer on the default scene
#               (or, with no display, render it headless to welkin-default.png)
#   make test   install what is missing, build, run every test (GPU tests use Mesa's EGL, no X needed;
#               window tests run under xvfb-run)
#   make bench  release build, then `welkin bench`

SWIFT ?= swift
# Debian packages Welkin builds and tests against. Mesa's llvmpipe provides OpenGL without a GPU.
# ffmpeg: `welkin export`'s video and GIF encoder (run as a program), and ffprobe for its tests.
# libimgui-dev and libstb-dev: the viewer's panel (Dear ImGui, a static library that needs stb).
# Text layers: FreeType (glyph coverage), HarfBuzz (shaping), fontconfig (family names, fallback);
# DejaVu Sans is the default font, WenQuanYi Micro Hei draws Chinese.
APT_PACKAGES = pkg-config libpng-dev libcairo2-dev libepoxy-dev libglfw3-dev libimgui-dev libstb-dev \
               libgl1-mesa-dri libegl-mesa0 libegl1 xvfb xauth xdotool ffmpeg \
               libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core fonts-wqy-microhei

.PHONY: all deps build build-debug test run bench soak clean

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

build: deps
	$(SWIFT) build -c release

build-debug: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build
	$(SWIFT) test

# With a display: the viewer on the built-in default scene. Without one: a headless render.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  ./.build/release/welkin view; \
	else \
	  echo "make run: no display (DISPLAY is unset), so rendering the default scene headless instead of opening the viewer"; \
	  ./.build/release/welkin render -o welkin-default.png && \
	  echo "make run: the default scene is in $(CURDIR)/welkin-default.png"; \
	fi

bench: build
	./.build/release/welkin bench

# Long runs: each scene drawn headless for SOAK_SECONDS, memory and GL objects watched (welkin soak).
SOAK_SECONDS ?= 120
soak: build
	./.build/release/welkin soak Scenes/snow.json Scenes/fire.json Scenes/weather-tour.json Scenes/mesh-seed.json --seconds $(SOAK_SECONDS)

clean:
	rm -rf .build welkin-default.png
