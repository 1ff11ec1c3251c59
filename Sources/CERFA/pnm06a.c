/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraPnm06a(double date1, double date2, double rbpn[3][3])

{
   double gamb, phib, psib, epsa, dp, de;

   eraPfw06(date1, date2, &gamb, &phib, &psib, &epsa);

   eraNut06a(date1, date2, &dp, &de);

   eraFw2m(gamb, phib, psib + dp, epsa + de, rbpn);

}
