/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraAtciqz(double rc, double dc, eraASTROM *astrom,
               double *ri, double *di)

{
   double pco[3], pnat[3], ppr[3], pi[3], w;

   eraS2c(rc, dc, pco);

   eraLdsun(pco, astrom->eh, astrom->em, pnat);

   eraAb(pnat, astrom->v, astrom->em, astrom->bm1, ppr);

   eraRxp(astrom->bpn, ppr, pi);

   eraC2s(pi, &w, di);
   *ri = eraAnp(w);

}
