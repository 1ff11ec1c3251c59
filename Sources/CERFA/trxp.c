/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraTrxp(double r[3][3], double p[3], double trp[3])

{
   double tr[3][3];

   eraTr(r, tr);

   eraRxp(tr, p, trp);

}
