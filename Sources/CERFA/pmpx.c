/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

void eraPmpx(double rc, double dc, double pr, double pd,
             double px, double rv, double pmt, double pob[3],
             double pco[3])

{

   const double VF = ERFA_DAYSEC*ERFA_DJM/ERFA_DAU;

   const double AULTY = ERFA_AULT/ERFA_DAYSEC/ERFA_DJY;

   int i;
   double sr, cr, sd, cd, x, y, z, p[3], dt, pxr, w, pdz, pm[3];

   sr = sin(rc);
   cr = cos(rc);
   sd = sin(dc);
   cd = cos(dc);
   p[0] = x = cr*cd;
   p[1] = y = sr*cd;
   p[2] = z = sd;

   dt = pmt + eraPdp(p,pob)*AULTY;

   pxr = px * ERFA_DAS2R;
   w = VF * rv * pxr;
   pdz = pd * z;
   pm[0] = - pr*y - pdz*cr + w*x;
   pm[1] =   pr*x - pdz*sr + w*y;
   pm[2] =   pd*cd + w*z;

   for (i = 0; i < 3; i++) {
      p[i] += dt*pm[i] - pxr*pob[i];
   }
   eraPn(p, &w, pco);

}
