/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfaextra.h"

static eraLEAPSECOND *changes;
static int NDAT = -1;

int eraGetLeapSeconds(eraLEAPSECOND **leapseconds)

{
    if (NDAT <= 0) {
        double delat;
        int stat = eraDat(2000, 1, 1, 0., &delat);
        if (stat != 0 || NDAT <= 0) {
            return -1;
        }
    }
    *leapseconds = changes;
    return NDAT;
}

void eraSetLeapSeconds(eraLEAPSECOND *leapseconds, int count)

{
    changes = leapseconds;
    NDAT = count;
}

int eraDatini(const eraLEAPSECOND *builtin, int n_builtin,
              eraLEAPSECOND **leapseconds)

{
    if (NDAT <= 0) {
        eraSetLeapSeconds((eraLEAPSECOND *)builtin, n_builtin);
    }
    *leapseconds = changes;
    return NDAT;
}
