/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

double eraPdp(double a[3], double b[3])

{
   double w;

   w  = a[0] * b[0]
      + a[1] * b[1]
      + a[2] * b[2];

   return w;

}
