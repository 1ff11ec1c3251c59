/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraRxpv(double r[3][3], double pv[2][3], double rpv[2][3])

{
   eraRxp(r, pv[0], rpv[0]);
   eraRxp(r, pv[1], rpv[1]);

}
