/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraApcg(double date1, double date2,
             double ebpv[2][3], double ehp[3],
             eraASTROM *astrom)

{

   double pv[2][3] = { { 0.0, 0.0, 0.0 },
                       { 0.0, 0.0, 0.0 } };

   eraApcs(date1, date2, pv, ebpv, ehp, astrom);

}
