/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraSxp(double s, double p[3], double sp[3])

{
   sp[0] = s * p[0];
   sp[1] = s * p[1];
   sp[2] = s * p[2];

}
