/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

void eraApco(double date1, double date2,
             double ebpv[2][3], double ehp[3],
             double x, double y, double s, double theta,
             double elong, double phi, double hm,
             double xp, double yp, double sp,
             double refa, double refb,
             eraASTROM *astrom)

{
   double r[3][3], a, b, eral, c, pvc[2][3], pv[2][3];

   eraIr(r);
   eraRz(theta+sp, r);
   eraRy(-xp, r);
   eraRx(-yp, r);
   eraRz(elong, r);

   a = r[0][0];
   b = r[0][1];
   eral = ( a != 0.0 || b != 0.0 ) ?  atan2(b, a) : 0.0;
   astrom->eral = eral;

   a = r[0][0];
   c = r[0][2];
   astrom->xpl = atan2(c, sqrt(a*a+b*b));
   a = r[1][2];
   b = r[2][2];
   astrom->ypl = ( a != 0.0 || b != 0.0 ) ? -atan2(a, b) : 0.0;

   astrom->along = eraAnpm(eral - theta);

   astrom->sphi = sin(phi);
   astrom->cphi = cos(phi);

   astrom->refa = refa;
   astrom->refb = refb;

   astrom->diurab = 0.0;

   eraC2ixys(x, y, s, r);

   eraPvtob(elong, phi, hm, xp, yp, sp, theta, pvc);

   eraTrxpv(r, pvc, pv);

   eraApcs(date1, date2, pv, ebpv, ehp, astrom);

   eraCr(r, astrom->bpn );

}
