/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraEcm06(double date1, double date2, double rm[3][3])

{
   double ob, bp[3][3], e[3][3];

   ob = eraObl06(date1, date2);

   eraPmat06(date1, date2, bp);

   eraIr(e);
   eraRx(ob, e);

   eraRxr(e, bp, rm);

}
