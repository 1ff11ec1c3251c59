// ERFA (Essential Routines for Fundamental Astronomy, the BSD-licensed derivative of the IAU SOFA
// library): precession-nutation, Earth rotation, the Moon, the planets. Debian: liberfa-dev.
#include <erfa.h>
