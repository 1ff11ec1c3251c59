/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraZp(double p[3])

{
   p[0] = 0.0;
   p[1] = 0.0;
   p[2] = 0.0;

}
