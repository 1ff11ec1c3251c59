/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

double eraFapa03(double t)

{
   double a;

   a = (0.024381750 + 0.00000538691 * t) * t;

   return a;

}
