/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraTrxpv(double r[3][3], double pv[2][3], double trpv[2][3])

{
   double tr[3][3];

   eraTr(r, tr);

   eraRxpv(tr, pv, trpv);

}
