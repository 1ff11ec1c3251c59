/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraApci13(double date1, double date2,
               eraASTROM *astrom, double *eo)

{
   double ehpv[2][3], ebpv[2][3], r[3][3], x, y, s;

   (void) eraEpv00(date1, date2, ehpv, ebpv);

   eraPnm06a(date1, date2, r);

   eraBpn2xy(r, &x, &y);

   s = eraS06(date1, date2, x, y);

   eraApci(date1, date2, ebpv, ehpv[0], x, y, s, astrom);

   *eo = eraEors(r, s);

}
