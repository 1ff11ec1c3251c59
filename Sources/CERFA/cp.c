/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraCp(double p[3], double c[3])

{
   c[0] = p[0];
   c[1] = p[1];
   c[2] = p[2];

}
