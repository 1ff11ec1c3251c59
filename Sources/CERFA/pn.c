/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraPn(double p[3], double *r, double u[3])

{
   double w;

   w = eraPm(p);
   if (w == 0.0) {

      eraZp(u);

   } else {

      eraSxp(1.0/w, p, u);
   }

   *r = w;

}
