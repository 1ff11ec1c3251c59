// OpenEXR's C library (OpenEXRCore, Debian's libopenexr-dev): `welkin render` and `reference` write
// scene-linear EXR through it (Sources/WelkinImage/EXR.swift).
#include <openexr.h>
