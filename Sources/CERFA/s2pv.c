/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraS2pv(double theta, double phi, double r,
             double td, double pd, double rd,
             double pv[2][3])

{
   double st, ct, sp, cp, rcp, x, y, rpd, w;

   st = sin(theta);
   ct = cos(theta);
   sp = sin(phi);
   cp = cos(phi);
   rcp = r * cp;
   x = rcp * ct;
   y = rcp * st;
   rpd = r * pd;
   w = rpd*sp - cp*rd;

   pv[0][0] = x;
   pv[0][1] = y;
   pv[0][2] = r * sp;
   pv[1][0] = -y*td - w*ct;
   pv[1][1] =  x*td - w*st;
   pv[1][2] = rpd*cp + sp*rd;

}
